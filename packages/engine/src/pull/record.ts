import { KINDS } from '@monitor/api';
import { type DesiredResource, topField } from '@monitor/constructs';
import type { SecretHasher } from '../hash.js';
import { fieldHashesOf, packFieldHashes, unpackFieldHashes } from '../plan/causes.js';
import { withoutIgnored } from '../plan/ignore.js';
import { appliedHash } from '../plan/resource.js';
import type { Live, Plan } from '../plan/types.js';
import type { StateChanges } from '../state/backend.js';
import { type State, type StateEntry, stateKey } from '../state/state.js';
import { causeOf } from './plan-pull.js';
import type { PulledEdit, ResourcePull } from './types.js';

/**
 * What pull records once it has written the account's values into the code: that code and
 * account agree on them. State keeps, per top-level field, a hash of the code's value and of the
 * account's (`plan/causes.ts`); a pulled field gets the hash of the code as it now reads and of
 * the account as pull read it. The next edit of it in the code is then a change of the code's,
 * not drift for a deploy to undo or for pull to write back.
 */

/** What pull wrote of one resource. */
export interface PulledFields {
  key: string;
  /** The state entry as the plan read it: recorded only if state still holds it so. */
  entry: StateEntry;
  /** The top-level fields pull wrote. */
  fields: string[];
  /** The account's hash of each of them, as pull read the account. */
  accountHashes: Record<string, string>;
  /** The code was what was last applied (every change the account's): so is the code pull leaves. */
  applied: boolean;
}

/** The fields of each resource that pull wrote (`pulled`, out of the plan's `resources`). */
export function pulledFields(
  plan: Plan,
  live: Live,
  resources: readonly ResourcePull[],
  pulled: readonly PulledEdit[],
): PulledFields[] {
  const written = new Set(pulled.map((p) => `${p.key}\n${p.path}`));
  return resources.flatMap((r) => {
    const entry = plan.priorState.resources[r.key];
    const op = plan.operations.find((o) => o.action === 'update' && stateKey(o.kind, o.logicalId) === r.key);
    const current = live[r.kind].find(
      (l) => entry !== undefined && String(l.id) === String(entry.physicalId),
    );
    if (entry === undefined || op === undefined || op.action !== 'update' || current === undefined) return [];
    const fields = [
      ...new Set(
        r.edits.filter((e) => written.has(`${r.key}\n${e.path}`)).flatMap((e) => e.changes.map(topField)),
      ),
    ];
    if (fields.length === 0) return [];
    return [
      {
        key: r.key,
        entry,
        fields,
        accountHashes: fieldHashesOf(r.kind, current, fields, plan.secrets),
        applied:
          entry.appliedHash === op.desiredHash && op.changes.every((c) => causeOf(c, op) === 'account'),
      },
    ];
  });
}

/**
 * The entries to record, from a plan of the code as pull left it (`after`, over the account pull
 * read and `state` as it is now): each pulled field the code and the account now agree on gets
 * both hashes. An entry that moved since pull read it (a deploy in between) is left as it is.
 */
export function agreedEntries(
  pulled: readonly PulledFields[],
  after: { resources: readonly DesiredResource[]; plan: Plan },
  state: State,
): StateChanges {
  const changes: StateChanges = {};
  for (const p of pulled) {
    const now = state.resources[p.key];
    if (now === undefined || !sameEntry(now, p.entry)) continue;
    const d = after.resources.find((r) => stateKey(r.kind, r.logicalId) === p.key);
    const op = after.plan.operations.find((o) => stateKey(o.kind, o.logicalId) === p.key);
    if (d === undefined || (op !== undefined && op.action !== 'update')) continue;
    const left = new Set(op?.action === 'update' ? op.changes.map((c) => topField(c.path)) : []);
    const managed = withoutIgnored(KINDS[d.kind], d.payload, d.options.ignoreChanges);
    const agreed = p.fields.filter((f) => !left.has(f) && f in managed && p.accountHashes[f] !== undefined);
    if (agreed.length === 0) continue;
    changes[p.key] = agreedEntry(now, d, managed, agreed, p, after.plan.secrets);
  }
  return changes;
}

function sameEntry(a: StateEntry, b: StateEntry): boolean {
  return (
    String(a.physicalId) === String(b.physicalId) &&
    a.appliedHash === b.appliedHash &&
    a.fieldHashes === b.fieldHashes
  );
}

/** `entry` with the `agreed` fields' hashes: the code's (as `plan/compare.ts` hashes a payload) and the account's. */
function agreedEntry(
  entry: StateEntry,
  d: DesiredResource,
  managed: Record<string, unknown>,
  agreed: readonly string[],
  pulled: PulledFields,
  secrets: SecretHasher,
): StateEntry {
  const recorded = entry.fieldHashes === undefined ? undefined : unpackFieldHashes(d.kind, entry.fieldHashes);
  const code: Record<string, string> = {};
  const account: Record<string, string> = {};
  for (const [field, hashes] of recorded ?? []) {
    code[field] = hashes.code;
    account[field] = hashes.account;
  }
  const codeNow = fieldHashesOf(d.kind, managed, agreed, secrets);
  for (const field of agreed) {
    code[field] = codeNow[field] as string;
    account[field] = pulled.accountHashes[field] as string;
  }
  return {
    ...entry,
    fieldHashes: packFieldHashes(d.kind, code, account),
    ...(pulled.applied ? { appliedHash: appliedHash(d.kind, managed, secrets) } : {}),
  };
}
