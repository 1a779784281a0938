import {
  fieldsOf,
  isRecord,
  KINDS,
  type KindDefinition,
  type ResourceKind,
  replaceSensitive,
} from '@monitor/api';
import { topField } from '@monitor/constructs';
import { canonicalJson, hashJson, hashOfJson, type SecretHasher } from '../hash.js';
import type { StateEntry } from '../state/state.js';
import type { Change, ChangeCause } from './diff.js';

/**
 * The labelling stage: each changed field of an update told by its own cause. State keeps, for
 * every top-level field of the payload last applied, a short hash of the value the code gave and of
 * the value the account answered with (`fieldHashes`). Now, a field whose code hash moved changed
 * in the code, one whose account hash moved changed in the account, and one whose both moved is a
 * conflict the deploy resolves toward the code.
 *
 * In state the hashes are packed in one string per entry, so that a state of 50,000 resources
 * stays small and quick to read: the kind's fields in their schema order (and a hash of that
 * order, so that a field added to a kind later unpacks as unknown, never as another field's), 8
 * hex digits for the code and 8 for the account, `-` for a field the payload did not have.
 */

type Payload = Record<string, unknown>;

/**
 * A value with its sets and keyed lists in a stable order, so that a reordering is no change.
 * `rulePath` is the value's path in the kind's rules: a top-level field's name, or deeper. A value
 * with no set or keyed list under it is returned as it is (most fields: no copy to make).
 */
function normalized(def: KindDefinition, rulePath: string, value: unknown): unknown {
  if (!rulePathsOf(def).has(rulePath)) return value;
  if (Array.isArray(value)) {
    const items = value.map((item) => normalized(def, `${rulePath}[]`, item));
    const keyField = def.keyed[rulePath];
    if (keyField !== undefined)
      return [...items].sort((a, b) =>
        String(isRecord(a) ? a[keyField] : a).localeCompare(String(isRecord(b) ? b[keyField] : b)),
      );
    if (def.sets.includes(rulePath))
      return [...items].sort((a, b) => canonicalJson(a).localeCompare(canonicalJson(b)));
    return items;
  }
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, normalized(def, `${rulePath}.${k}`, v)]),
  );
}

/** Each rule path of a kind's sets and keyed lists, and every path on the way to one. */
const RULE_PATHS = new WeakMap<KindDefinition, Set<string>>();
function rulePathsOf(def: KindDefinition): Set<string> {
  let paths = RULE_PATHS.get(def);
  if (paths === undefined) {
    paths = new Set();
    for (const rule of [...def.sets, ...Object.keys(def.keyed)]) {
      // 'cards[].services' is reached through 'cards' and 'cards[]'.
      let path = '';
      for (const step of rule.split(/(?=\.|\[\])/)) {
        path += step;
        paths.add(path);
      }
    }
    RULE_PATHS.set(def, paths);
  }
  return paths;
}

const HASH = 8;

/**
 * Short hashes of the small values fields hold, by their JSON: the same few recur in every
 * resource (`true`, `1`, `"eu-west-1"`, `[]`), and a deploy hashes each field of each payload
 * twice (the code's and the account's), 1.5 million hashes at 50,000 resources.
 */
const shortOfSmall = new Map<string, string>();
const SMALL_JSON = 64;
const KEPT_SMALL = 4096;

function short(value: unknown): string {
  const json = canonicalJson(value);
  if (json.length > SMALL_JSON) return hashOfJson(json).slice(0, HASH);
  let hashed = shortOfSmall.get(json);
  if (hashed === undefined) {
    hashed = hashOfJson(json).slice(0, HASH);
    if (shortOfSmall.size < KEPT_SMALL) shortOfSmall.set(json, hashed);
  }
  return hashed;
}

/** The kind's top-level fields in schema order, and a hash of that order. */
const ORDERS = new Map<ResourceKind, { fields: string[]; tag: string }>();
function orderOf(kind: ResourceKind): { fields: string[]; tag: string } {
  let order = ORDERS.get(kind);
  if (order === undefined) {
    const fields = fieldsOf(KINDS[kind].createSchema);
    order = { fields, tag: hashJson(fields).slice(0, 6) };
    ORDERS.set(kind, order);
  }
  return order;
}

/** What a state entry records: the code's and the account's hash of each field, packed. */
export function packFieldHashes(
  kind: ResourceKind,
  code: Readonly<Record<string, string>>,
  account: Readonly<Record<string, string>>,
): string {
  const { fields, tag } = orderOf(kind);
  const packed = fields.map((f) => {
    const c = code[f];
    const a = account[f];
    return c === undefined || a === undefined ? '-' : `${c}${a}`;
  });
  return `${tag}:${packed.join('.')}`;
}

/** The recorded hashes by field; undefined when they were packed for another list of fields. */
export function unpackFieldHashes(
  kind: ResourceKind,
  packed: string,
): Map<string, { code: string; account: string }> | undefined {
  const { fields, tag } = orderOf(kind);
  const [head, body = ''] = packed.split(':');
  if (head !== tag) return undefined;
  const parts = body.split('.');
  if (parts.length !== fields.length) return undefined;
  const out = new Map<string, { code: string; account: string }>();
  for (const [i, field] of fields.entries()) {
    const part = parts[i] as string;
    if (part.length === 2 * HASH) out.set(field, { code: part.slice(0, HASH), account: part.slice(HASH) });
  }
  return out;
}

/** A short hash of each of `fields` of a payload or a live resource: secrets as their keyed hashes. */
export function fieldHashesOf(
  kind: ResourceKind,
  resource: Payload,
  fields: readonly string[],
  secrets: SecretHasher,
): Record<string, string> {
  const def = KINDS[kind];
  const safe = replaceSensitive(def, resource, (value) => secrets.hash(value) ?? 'unkeyed') as Payload;
  return Object.fromEntries(
    fields.map((field) => [field, short(normalized(def, field, safe[field] ?? null))]),
  );
}

/** What an entry records of each field, packed: the code's hashes, and the account's of `live`. */
export function recordedFieldHashes(
  codeHashes: Readonly<Record<string, string>>,
  kind: ResourceKind,
  live: Payload,
  secrets: SecretHasher,
): string {
  return packFieldHashes(kind, codeHashes, fieldHashesOf(kind, live, Object.keys(codeHashes), secrets));
}

export interface CauseContext {
  kind: ResourceKind;
  /** The entry of state; absent for an adoption (nothing was applied yet). */
  entry: StateEntry | undefined;
  /** The code's hashes of the desired payload now. */
  codeHashes: Readonly<Record<string, string>>;
  /** The live resource now. */
  live: Payload;
  secrets: SecretHasher;
  /** The whole resource drifted (the code is what was last applied): the cause when a field's is unknown. */
  drift: boolean;
}

/** `changes`, each with its cause. */
export function labelCauses(changes: readonly Change[], ctx: CauseContext): Change[] {
  const packed = ctx.entry?.fieldHashes;
  const recorded = packed === undefined ? undefined : unpackFieldHashes(ctx.kind, packed);
  const fields = [...new Set(changes.map((c) => topField(c.path)))];
  const account = recorded === undefined ? {} : fieldHashesOf(ctx.kind, ctx.live, fields, ctx.secrets);
  // Not `{ ...change, cause }`: see `operationBase` in compare.ts.
  return changes.map((change) =>
    Object.assign({}, change, { cause: causeOf(change, ctx, recorded, account) }),
  );
}

function causeOf(
  change: Change,
  ctx: CauseContext,
  recorded: Map<string, { code: string; account: string }> | undefined,
  account: Record<string, string>,
): ChangeCause {
  if (ctx.entry === undefined) return 'code';
  // Without the state secret a secret's change cannot be told by cause: the deploy writes the code's.
  if (change.sensitive === true && !ctx.secrets.keyed) return 'code';
  const field = topField(change.path);
  const before = recorded?.get(field);
  const now = ctx.codeHashes[field];
  if (before === undefined || now === undefined) return ctx.drift ? 'account' : 'code';
  const inCode = now !== before.code;
  const inAccount = account[field] !== before.account;
  if (inCode && inAccount) return 'both';
  if (inCode) return 'code';
  if (inAccount) return 'account';
  // Neither moved, yet they differ (the account answers in another shape than it stores).
  return ctx.drift ? 'account' : 'code';
}
