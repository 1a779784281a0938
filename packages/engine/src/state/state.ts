import { randomBytes } from 'node:crypto';
import {
  formatIssuePath,
  isRecord,
  JsonWhenWritten,
  jsonPieces,
  RESOURCE_KINDS,
  type ResourceKind,
} from '@monitor/api';
import { z } from '@monitor/api/zod';
import { InvalidStateError } from '../errors.js';
import { ByPhysicalId } from '../identity.js';
import { stateKey } from './key.js';

export { stateKey };

/**
 * The version of the state's format, raised whenever a key is added to the state or its entries
 * (`state.test.ts` holds the keys of each version): an older monitor then refuses the file as
 * written by a newer one, instead of reading it as damaged. Version 2 added `identity` and
 * `fieldHashes`, written under version 1 by the monitor that introduced them; version 3 added
 * `lastDeploy.baseline`; version 4 an entry's `uses`.
 */
export const STATE_FORMAT_VERSION = 4;
/** The versions this monitor reads; an older one is read as the current one and written as it. */
const FORMAT_VERSIONS_READ = [1, 2, 3, 4] as const;

/** What monitor remembers of one resource it owns: ids and hashes, never an attribute or a secret. */
export interface StateEntry {
  kind: ResourceKind;
  logicalId: string;
  physicalId: string | number;
  /** Hash of the payload last applied, to tell drift (changed outside) from code changes. */
  appliedHash: string;
  /** Salted hashes of sensitive values by the path a diff names them with (e.g. `environmentVariables[TOKEN].value`). */
  secretHashes: Record<string, string>;
  /** Remembered so that a construct removed from code is still never deleted. */
  protect: boolean;
  /**
   * What told the resource apart when it was last written: its natural key, or its name
   * (`identityOf`). A delete goes ahead only while the account holds a resource with it at this id.
   * Absent in entries written before 0.2, and for kinds with nothing to tell a resource by.
   */
  identity?: string;
  /**
   * For each top-level field of the payload last applied, a short hash of the value the code gave
   * and of the value the account answered with (secrets as their keyed hashes), packed in one
   * string (`plan/causes.ts`): a field whose code hash moved changed in the code, one whose account
   * hash moved changed in the account. Absent in entries written before 0.3: the resource's drift
   * is then told as a whole.
   */
  fieldHashes?: string;
  /**
   * The constructs of other projects the payload last applied references (`X.fromProject`), as
   * `project/Kind:logicalId`, sorted: the owning project refuses to delete them while this entry
   * stands. Absent when there are none (and in entries written before format 4).
   */
  uses?: string[];
}

export interface State {
  formatVersion: typeof STATE_FORMAT_VERSION;
  accountId: string;
  /**
   * The service the state was written against (its base URL, or `local` for the embedded
   * emulator): ids mean nothing on another server. Absent until the first write records it.
   */
  service?: string;
  /** Incremented on every write; a saved plan records the serial it was made against. */
  serial: number;
  /** Salt of the secret hashes. */
  salt: string;
  /** By `Kind:logicalId`. */
  resources: Record<string, StateEntry>;
  /**
   * Keys (`Kind:logicalId`) of creates that were sent but whose answer was never seen (the run
   * died, or the outcome stayed unknown). The next plan looks for them in the account before
   * creating again: the only trace of an alert channel, which has no natural key.
   */
  pendingCreates: string[];
  /** The last deploy that applied anything, for `monitor verify --since-deploy`. */
  lastDeploy?: LastDeploy;
}

/** When the last deploy applied, and the check groups it changed in a way that affects runs. */
export interface LastDeploy {
  /** When its apply started (ISO 8601). */
  at: string;
  /** State keys (`CheckGroup:logicalId`) of the groups it created, replaced or changed in a run field. */
  groups: string[];
  /**
   * With `deploy --verify`: how the checks of those groups stood before the apply, so that
   * `verify --since-deploy` judges against it after a verification that never finished (format 3).
   */
  baseline?: KeptBaseline;
}

/** How a check stood before a deploy: its status, and where it ran. */
export interface CheckBefore {
  status: 'passing' | 'failing' | 'degraded';
  /** Its group's locations when the group has some, else its own. */
  locations: string[];
}

/**
 * A verification's baseline as the deploy's record keeps it: only the checks of the groups the
 * deploy changed, and their error groups. Ids and statuses, never a check's attributes.
 */
export interface KeptBaseline {
  /** By check id; a check not here had no status before the deploy (it never ran, or was made since). */
  checks: Record<string, CheckBefore>;
  /** The error groups those checks had: the id of each, and of its check. */
  errorGroups: Record<string, string>;
}

/** Before 0.2 a secret variable's hash was keyed by its item; now by its field's path. */
const migratedSecretPath = (path: string) =>
  /^environmentVariables\[[^\]]*\]$/.test(path) ? `${path}.value` : path;

export const stateEntrySchema = z.strictObject({
  kind: z.enum(RESOURCE_KINDS as [ResourceKind, ...ResourceKind[]]),
  logicalId: z.string().min(1),
  physicalId: z.union([z.string().min(1), z.number().int()]),
  appliedHash: z.string(),
  // Before 0.2 a secret variable's hash was keyed by its item (`environmentVariables[TOKEN]`);
  // now every secret is keyed by its field's path, as the diff names it.
  secretHashes: z
    .record(z.string(), z.string())
    .transform((hashes) =>
      Object.fromEntries(Object.entries(hashes).map(([path, hash]) => [migratedSecretPath(path), hash])),
    ),
  protect: z.boolean(),
  identity: z.string().optional(),
  fieldHashes: z.string().optional(),
  uses: z.array(z.string().min(1)).optional(),
});

export const stateSchema = z.strictObject({
  formatVersion: z.literal(FORMAT_VERSIONS_READ).transform(() => STATE_FORMAT_VERSION),
  accountId: z.string().min(1),
  service: z.string().min(1).optional(),
  serial: z.number().int().min(0),
  salt: z.string().min(8),
  resources: z.record(z.string(), stateEntrySchema),
  // Written only when there are some, so the file of a finished deploy stays as it was.
  pendingCreates: z.array(z.string()).default([]),
  lastDeploy: z
    .strictObject({
      at: z.iso.datetime(),
      groups: z.array(z.string()),
      baseline: z
        .strictObject({
          checks: z.record(
            z.string(),
            z.strictObject({
              status: z.enum(['passing', 'failing', 'degraded']),
              locations: z.array(z.string()),
            }),
          ),
          errorGroups: z.record(z.string(), z.string()),
        })
        .optional(),
    })
    .optional(),
});

/** Parse the text of a state file; `location` names it in errors. */
export function parseStateText(text: string, location: string): State {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new InvalidStateError(
      `state file ${location} is not valid JSON: ${(e as Error).message}`,
      'restore it from git; monitor never writes a partial file',
    );
  }
  checkFormatVersion(isRecord(raw) ? raw.formatVersion : undefined, `state file ${location}`);
  const plain = plainState(raw);
  if (plain !== undefined) return plain;
  const parsed = stateSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidStateError(
      `state file ${location} is not a monitor state (format ${String((raw as { formatVersion?: unknown } | null)?.formatVersion)}): ${formatIssuePath(issue?.path ?? [])} ${issue?.message ?? ''}`.trim(),
      'restore it from git, or upgrade monitor if it was written by a newer version',
    );
  }
  return parsed.data as State;
}

/**
 * Refuse a state written by a newer monitor, before reading anything else of it: its keys are not
 * damage, and restoring an older copy would throw away what that monitor recorded.
 */
export function checkFormatVersion(version: unknown, where: string): void {
  if (typeof version !== 'number' || !Number.isInteger(version) || version <= STATE_FORMAT_VERSION) return;
  throw new InvalidStateError(
    `${where} was written by a newer monitor (state format ${version}; this monitor reads up to ${STATE_FORMAT_VERSION})`,
    'upgrade monitor to the version that wrote it; do not restore an older copy, which would lose what it recorded',
  );
}

/**
 * The state `stateSchema` reads from `raw`, checked by hand, when every entry is as this monitor
 * writes them; undefined otherwise (then the schema reads it, and names what is wrong). The schema
 * checks each of tens of thousands of entries at ~4 µs; this, a tenth of that. What it returns is
 * the schema's own result, field for field and in the same order (`state.test.ts`).
 */
export function plainState(raw: unknown): State | undefined {
  if (!isRecord(raw) || !isRecord(raw.resources)) return undefined;
  const resources: Record<string, StateEntry> = {};
  for (const key in raw.resources) {
    // `__proto__` would set the record's prototype: the schema reads that one.
    if (!Object.hasOwn(raw.resources, key) || key === '__proto__') return undefined;
    const entry = plainEntry(raw.resources[key]);
    if (entry === undefined) return undefined;
    resources[key] = entry;
  }
  // The rest is small: the schema reads it (an empty record of entries in place of the real one).
  const rest = stateSchema.safeParse({ ...raw, resources: {} });
  return rest.success ? ({ ...rest.data, resources } as State) : undefined;
}

const ENTRY_FIELDS = new Set([
  'kind',
  'logicalId',
  'physicalId',
  'appliedHash',
  'secretHashes',
  'protect',
  'identity',
  'fieldHashes',
  'uses',
]);
const KIND_NAMES = new Set<unknown>(RESOURCE_KINDS);

/** One entry as `stateEntrySchema` reads it; undefined when it is not plainly valid. */
function plainEntry(value: unknown): StateEntry | undefined {
  if (!isRecord(value)) return undefined;
  for (const key in value) if (!ENTRY_FIELDS.has(key) || !Object.hasOwn(value, key)) return undefined;
  const { kind, logicalId, physicalId, appliedHash, secretHashes, protect, identity, fieldHashes, uses } =
    value;
  if (
    !KIND_NAMES.has(kind) ||
    typeof logicalId !== 'string' ||
    logicalId === '' ||
    !((typeof physicalId === 'string' && physicalId !== '') || Number.isSafeInteger(physicalId)) ||
    typeof appliedHash !== 'string' ||
    !isRecord(secretHashes) ||
    typeof protect !== 'boolean' ||
    (identity !== undefined && typeof identity !== 'string') ||
    (fieldHashes !== undefined && typeof fieldHashes !== 'string') ||
    (uses !== undefined && !isUses(uses))
  )
    return undefined;
  const hashes: Record<string, string> = {};
  for (const path in secretHashes) {
    const hash = secretHashes[path];
    if (typeof hash !== 'string' || !Object.hasOwn(secretHashes, path) || path === '__proto__')
      return undefined;
    hashes[migratedSecretPath(path)] = hash;
  }
  return {
    kind: kind as ResourceKind,
    logicalId,
    physicalId: physicalId as string | number,
    appliedHash,
    secretHashes: hashes,
    protect,
    ...(identity === undefined ? {} : { identity }),
    ...(fieldHashes === undefined ? {} : { fieldHashes }),
    ...(uses === undefined ? {} : { uses: [...(uses as string[])] }),
  };
}

function isUses(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((use) => typeof use === 'string' && use !== '');
}

/** Something wrong in a state that no deploy should build on, and the entries it is about. */
export interface IntegrityProblem {
  message: string;
  /** The entries involved: `monitor state rm` of one of them repairs it. */
  keys: string[];
}

/**
 * What is wrong in a state, whatever wrote it (a hand edit pushed, an old bug): two entries that
 * record one resource would make a deploy copy one construct over the other's resource, back and
 * forth on every run; an entry filed under another key than its kind and logical id is one no
 * construct finds.
 */
export function integrityProblems(state: State): IntegrityProblem[] {
  const problems: IntegrityProblem[] = [];
  const byId = new ByPhysicalId<string>();
  for (const [key, entry] of Object.entries(state.resources)) {
    if (key !== stateKey(entry.kind, entry.logicalId)) {
      problems.push({
        message: `entry "${key}" records ${stateKey(entry.kind, entry.logicalId)}: its key must be its kind and logical id`,
        keys: [key],
      });
    }
    const other = byId.tryFind(entry.kind, entry.physicalId);
    if (other !== undefined) {
      problems.push({
        message: `has two entries for ${entry.kind} id ${String(entry.physicalId)}: "${other}" and "${key}"`,
        keys: [other, key],
      });
    }
    byId.set(entry.kind, entry.physicalId, key);
  }
  return problems;
}

/** The state, when nothing is wrong in it; else an error naming the problem and the command that repairs it. */
export function checkIntegrity(state: State, location: string): State {
  const problems = integrityProblems(state);
  const first = problems[0];
  if (first === undefined) return state;
  const more =
    problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '';
  const key = first.keys[first.keys.length - 1] as string;
  throw new InvalidStateError(
    `state ${location} ${first.message}${more}`,
    `remove the entry that does not belong with monitor state rm "${key}" (monitor state list shows every entry, and works on a damaged state), or push a good state over it with monitor state push --force FILE`,
  );
}

export function emptyState(accountId: string): State {
  return {
    formatVersion: STATE_FORMAT_VERSION,
    accountId,
    serial: 0,
    salt: randomBytes(16).toString('hex'),
    resources: {},
    pendingCreates: [],
  };
}

/** The state as stored: keys sorted, two-space indent, newline at the end, so it diffs well in git. */
export function serializeState(state: State): string {
  return [...stateTextPieces(state)].join('');
}

/**
 * `serializeState`'s text in pieces, an entry at a time: the state of 30,000 resources is 18 MB
 * of text, which as one string (and its UTF-8 copy for the write) came on top of the peak memory of
 * a deploy, at its end. Each entry is put in its stored order only as it is written (`toJSON`), so
 * that no copy of the whole state is made either (20 MB more at 30,000 resources).
 */
export function* stateTextPieces(state: State): Generator<string> {
  yield* jsonPieces(storedState(state), { depth: 2 });
  yield '\n';
}

/** An entry as stored: its keys in their order, its secrets' hashes sorted. */
function storedEntry(e: StateEntry): Record<string, unknown> {
  const secretHashes = Object.fromEntries(
    Object.keys(e.secretHashes)
      .sort()
      .map((k) => [k, e.secretHashes[k]]),
  );
  return {
    kind: e.kind,
    logicalId: e.logicalId,
    physicalId: e.physicalId,
    appliedHash: e.appliedHash,
    secretHashes,
    protect: e.protect,
    ...(e.identity === undefined ? {} : { identity: e.identity }),
    ...(e.fieldHashes === undefined ? {} : { fieldHashes: e.fieldHashes }),
    ...(e.uses === undefined || e.uses.length === 0 ? {} : { uses: [...e.uses].sort() }),
  };
}

/** The state as the object whose JSON is stored: keys in their order, each entry's when written. */
function storedState(state: State): Record<string, unknown> {
  // Each entry's stored form is made as it is written, not all at once beside the state.
  const resources: Record<string, JsonWhenWritten<StateEntry, Record<string, unknown>>> = {};
  for (const key of Object.keys(state.resources).sort())
    resources[key] = new JsonWhenWritten(state.resources[key] as StateEntry, storedEntry);
  return {
    formatVersion: state.formatVersion,
    accountId: state.accountId,
    ...(state.service === undefined ? {} : { service: state.service }),
    serial: state.serial,
    salt: state.salt,
    resources,
    ...(state.pendingCreates.length === 0 ? {} : { pendingCreates: [...state.pendingCreates].sort() }),
    ...(state.lastDeploy === undefined ? {} : { lastDeploy: state.lastDeploy }),
  };
}
