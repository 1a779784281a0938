import type { ResourceKind } from '@monitor/api';
import type { SecretHasher } from '../hash.js';
import { fieldHashesOf, recordedFieldHashes } from '../plan/causes.js';
import { appliedHash, identityOf, type LiveResource, resolveRefs, secretValues } from '../plan/plan.js';
import type { StateEntry } from '../state/state.js';
import type { Recovery } from './recover.js';
import { type SynthesizedImport, UNKNOWN_SECRET } from './synthesize.js';
import { isSecretValue, markSecrets } from './values.js';

/** A state entry's hash for a recovered resource whose code differs from the account: never a desired hash. */
export const RECOVERED_HASH = 'recovered';

/** What the entries are made with: the state secret's hasher, and the physical id of each logical id referred to. */
export interface EntryContext {
  secrets: SecretHasher;
  ids: ReadonlyMap<string, string | number>;
}

/** The state entry apply would have recorded had it written an imported construct's payload to its live resource. */
export function importedEntry({ res, desired: d, live }: SynthesizedImport, ctx: EntryContext): StateEntry {
  return {
    kind: d.kind,
    logicalId: d.logicalId,
    physicalId: res.physicalId,
    appliedHash: appliedHash(d.kind, d.payload, ctx.secrets),
    secretHashes: secretHashesOf(d.kind, d.payload, new Set(), ctx),
    protect: false,
    ...identityEntry(d.kind, live),
    fieldHashes: recordedFieldHashes(
      fieldHashesOf(d.kind, d.payload, Object.keys(d.payload), ctx.secrets),
      d.kind,
      live,
      ctx.secrets,
    ),
  };
}

/**
 * The state entry of a construct found again in the account. What it applied is not known: its
 * hash says so (`RECOVERED_HASH`) until the plan shows code and account agree. What the service
 * masks cannot be told from the account: the next deploy sends it once.
 */
export function recoveredEntry({ d, r }: Recovery, ctx: EntryContext): StateEntry {
  return {
    kind: d.kind,
    logicalId: d.logicalId,
    physicalId: r.id,
    appliedHash: RECOVERED_HASH,
    secretHashes: secretHashesOf(d.kind, d.payload, new Set(maskedPaths(d.kind, r)), ctx),
    protect: d.options.protect,
    ...identityEntry(d.kind, r),
  };
}

/** The hashes of a payload's sensitive values, but those `skip` names and those no one knows. */
function secretHashesOf(
  kind: ResourceKind,
  payload: Record<string, unknown>,
  skip: ReadonlySet<string>,
  ctx: EntryContext,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(secretValues(kind, resolveRefs(payload, ctx.ids) as Record<string, unknown>)).flatMap(
      ([path, value]) => {
        const hash =
          value === '' || value === UNKNOWN_SECRET || skip.has(path) ? undefined : ctx.secrets.hash(value);
        return hash === undefined ? [] : [[path, hash]];
      },
    ),
  );
}

/** The `identity` of a state entry for a live resource, when it has one. */
function identityEntry(kind: ResourceKind, live: LiveResource): { identity?: string } {
  const identity = identityOf(kind, live);
  return identity === undefined ? {} : { identity };
}

/** The diff paths of the values the service masks in a live resource. */
function maskedPaths(kind: ResourceKind, r: LiveResource): string[] {
  const out: string[] = [];
  const walk = (value: unknown) => {
    if (isSecretValue(value)) {
      if (value.masked) out.push(value.path);
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(markSecrets(kind, r));
  return out;
}
