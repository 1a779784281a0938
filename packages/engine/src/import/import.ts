import type { ResourceKind } from '@monitor/api';
import type { DesiredResource, Diagnostic } from '@monitor/constructs';
import { secretHasher } from '../hash.js';
import { ByPhysicalId, type PhysicalId } from '../identity.js';
import { appliedHash, displayNameOf, type Live, type Operation, plan } from '../plan/plan.js';
import { type State, type StateEntry, stateKey } from '../state/state.js';
import { type EntryContext, importedEntry, recoveredEntry } from './entries.js';
import { type ImportedResource, type ImportSecret, importedResources } from './imported.js';
import { type Recovery, recoverLostState } from './recover.js';
import { type ImportFilters, type OwnedElsewhere, selectImported } from './select.js';
import { synthesizeImported } from './synthesize.js';

export type { ImportedResource, ImportFilters, ImportSecret };

export interface ImportOptions {
  live: Live;
  state: State;
  /** The project's constructs as they are: their logical ids are taken, and lost state is matched to them. */
  code: readonly DesiredResource[];
  /** The config's per-kind defaults: a field equal to them is left out of the code. */
  defaults?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  filters?: ImportFilters;
  /** Only find the code's constructs again (lost state); generate nothing. @default false */
  recoverOnly?: boolean;
  /** One module per kind (default), or the tagged kinds by their first tag. */
  groupBy?: 'kind' | 'tag';
  /** Live resources other projects own (→ the project): never imported. */
  otherOwners?: ByPhysicalId<string>;
  /** Where the generated code's secrets come from when they are set now (`process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** The state secret, for the hashes of sensitive values. */
  secretKey?: string | undefined;
  now: Date;
}

/** A construct already in the code whose lost state entry was found in the account. */
export interface RecoveredResource {
  kind: ResourceKind;
  construct: string;
  logicalId: string;
  physicalId: string | number;
  name?: string;
  /** Found by its whole content (an alert channel has no natural key): two channels may be alike, so a person confirms. */
  byContent: boolean;
  /** Paths where the account differs from the code: the next deploy updates them. */
  changes: number;
}

export interface ImportPlan {
  resources: ImportedResource[];
  recovered: RecoveredResource[];
  secrets: ImportSecret[];
  /** Live resources left out because another project owns them. */
  ownedElsewhere: OwnedElsewhere[];
  /** State entries to record: imported and recovered resources. Contents of no file. */
  entries: Record<string, StateEntry>;
  /** What the next diff still shows for imported resources (with the code as generated); recovered ones count their `changes`. */
  remaining: Operation[];
  /** Problems synthesizing the generated constructs: code that would not load as generated. */
  diagnostics: Diagnostic[];
}

/**
 * Plan an import: which live resources become constructs and under which names, their props
 * (only what differs from the defaults, references and secrets as markers), which constructs of
 * the code find their lost state in the account, and the state entries that make the next diff
 * show no changes. Pure: it reads nothing and writes nothing.
 */
export function planImport(options: ImportOptions): ImportPlan {
  const { live, state, code } = options;
  const env = options.env ?? {};
  const otherOwners = options.otherOwners ?? new ByPhysicalId<string>();
  const ownedHere = ByPhysicalId.of(Object.values(state.resources), (e) => [e.kind, e.physicalId]);
  const recoveries = recoverLostState(code, live, state, { here: ownedHere, elsewhere: otherOwners });
  // Nobody imports what this project owns or has just found again for one of its constructs.
  const foundAgain = ByPhysicalId.of(recoveries.values(), ({ d, r }) => [d.kind, r.id]);
  const owned = {
    has: (kind: ResourceKind, id: PhysicalId) => ownedHere.has(kind, id) || foundAgain.has(kind, id),
  };
  const { chosen, ownedElsewhere } =
    options.recoverOnly === true
      ? { chosen: [], ownedElsewhere: [] }
      : selectImported(live, options.filters ?? {}, owned, otherOwners);
  const { resources, secrets } = importedResources(chosen, {
    code,
    state,
    env,
    groupBy: options.groupBy ?? 'kind',
  });
  const ids = physicalIds(state, recoveries, resources);
  const { synthesized, diagnostics } = synthesizeImported(resources, chosen, {
    ids,
    defaults: options.defaults,
    env,
  });

  const ctx: EntryContext = { secrets: secretHasher(options.secretKey, state.salt), ids };
  const entries: Record<string, StateEntry> = {};
  for (const made of synthesized) {
    entries[stateKey(made.desired.kind, made.desired.logicalId)] = importedEntry(made, ctx);
  }
  for (const [key, recovery] of recoveries) entries[key] = recoveredEntry(recovery, ctx);

  const { remaining, recovered } = checkImport(options, {
    imported: synthesized.map((s) => s.desired),
    resources,
    recoveries,
    entries,
    ctx,
    otherOwners,
  });
  return { resources, recovered, secrets, ownedElsewhere, entries, remaining, diagnostics };
}

/** The physical id of every logical id the generated code and the code refer to. */
function physicalIds(
  state: State,
  recoveries: ReadonlyMap<string, Recovery>,
  resources: readonly ImportedResource[],
): Map<string, string | number> {
  const ids = new Map<string, string | number>();
  for (const e of Object.values(state.resources)) ids.set(stateKey(e.kind, e.logicalId), e.physicalId);
  for (const [key, { r }] of recoveries) ids.set(key, r.id);
  for (const res of resources) ids.set(stateKey(res.kind, res.logicalId), res.physicalId);
  return ids;
}

/**
 * The next diff, with the generated code and the new entries: what it still shows for imported
 * resources (it should show nothing), and how much each recovered construct differs from its
 * resource. A recovered construct that matches the account is what was applied: its entry takes
 * the code's hash, so that later changes outside monitor show as drift.
 */
function checkImport(
  options: ImportOptions,
  made: {
    imported: readonly DesiredResource[];
    resources: readonly ImportedResource[];
    recoveries: ReadonlyMap<string, Recovery>;
    entries: Record<string, StateEntry>;
    ctx: EntryContext;
    otherOwners: ByPhysicalId<string>;
  },
): { remaining: Operation[]; recovered: RecoveredResource[] } {
  const { live, state, code } = options;
  const after = { ...state, resources: { ...state.resources, ...made.entries } };
  const check = plan([...code, ...made.imported], live, after, {
    now: options.now,
    secretKey: options.secretKey,
    otherOwners: made.otherOwners,
  });
  const changed = new Map(check.operations.map((op) => [stateKey(op.kind, op.logicalId), op]));
  const remaining = made.resources.flatMap((res) => changed.get(stateKey(res.kind, res.logicalId)) ?? []);
  const recovered: RecoveredResource[] = [];
  for (const [key, { d, r, byContent }] of made.recoveries) {
    const op = changed.get(key);
    const changes = op !== undefined && op.action !== 'delete' && 'changes' in op ? op.changes.length : 0;
    if (op === undefined)
      (made.entries[key] as StateEntry).appliedHash = appliedHash(d.kind, d.payload, made.ctx.secrets);
    const name = displayNameOf(d.kind, r);
    recovered.push({
      kind: d.kind,
      construct: d.construct,
      logicalId: d.logicalId,
      physicalId: r.id,
      ...(name === undefined ? {} : { name }),
      byContent,
      changes,
    });
  }
  return { remaining, recovered };
}
