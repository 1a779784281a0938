import { KINDS, naturalKeyOf as naturalKeyIn, RESOURCE_KINDS, type ResourceKind } from '@monitor/api';
import type { DesiredResource, Diagnostic } from '@monitor/constructs';
import * as constructs from '@monitor/constructs';
import { secretHasher } from '../hash.js';
import { ByPhysicalId } from '../identity.js';
import { fieldHashesOf, recordedFieldHashes } from '../plan/causes.js';
import { type Change, diffPayload } from '../plan/diff.js';
import {
  appliedHash,
  displayNameOf,
  identityOf,
  isCreatedFrom,
  type Live,
  type LiveResource,
  type Operation,
  plan,
  resolveRefs,
  secretValues,
} from '../plan/plan.js';
import { type State, type StateEntry, stateKey } from '../state/state.js';
import { camelCase, constantCase, kebabCase, UniqueNames, wordsOf } from './names.js';
import {
  isRefValue,
  isSecretValue,
  markSecrets,
  type Props,
  type PropValue,
  type SecretValue,
} from './values.js';

/** The `identity` of a state entry for a live resource, when it has one. */
function identityEntry(kind: ResourceKind, live: LiveResource): { identity?: string } {
  const identity = identityOf(kind, live);
  return identity === undefined ? {} : { identity };
}

/** Which resources to import; flags of one kind are OR-ed, different kinds AND-ed. */
export interface ImportFilters {
  kinds?: readonly ResourceKind[];
  /** Physical ids. */
  ids?: readonly string[];
  /** Globs over display names: `*` any run of characters, `?` one. */
  names?: readonly string[];
  tags?: readonly string[];
}

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

/** A live resource that becomes a construct in generated code. */
export interface ImportedResource {
  kind: ResourceKind;
  /** The construct class, e.g. `SlackAlertChannel`. */
  construct: string;
  logicalId: string;
  /** The exported constant that holds it. */
  variable: string;
  physicalId: string | number;
  name?: string;
  /** The module (file name without extension) it goes in: `alert-channels`, `check-groups`, a tag. */
  module: string;
  /** Only the props that differ from what synthesis fills in; refs and secrets as markers. */
  props: Props;
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

/** An environment variable the generated code reads a sensitive value from. */
export interface ImportSecret {
  env: string;
  kind: ResourceKind;
  logicalId: string;
  /** The field, as a diff names it: `environmentVariables[API_TOKEN].value`, `config.serviceKey`. */
  path: string;
  /** The service never returns it (a secret env var): monitor cannot know it, only you can. */
  masked: boolean;
  /** Set in the environment of this import. */
  set: boolean;
}

export interface ImportPlan {
  resources: ImportedResource[];
  recovered: RecoveredResource[];
  secrets: ImportSecret[];
  /** Live resources left out because another project owns them. */
  ownedElsewhere: { kind: ResourceKind; physicalId: string | number; name?: string; project: string }[];
  /** State entries to record: imported and recovered resources. Contents of no file. */
  entries: Record<string, StateEntry>;
  /** What the next diff still shows for imported resources (with the code as generated); recovered ones count their `changes`. */
  remaining: Operation[];
  /** Problems synthesizing the generated constructs: code that would not load as generated. */
  diagnostics: Diagnostic[];
}

/**
 * What a variable is called when its resource has no usable name, and what precedes a leading
 * digit: the last word of the kind's noun (`group`, `channel`, `service`).
 */
const fallbackWord = (kind: ResourceKind) => KINDS[kind].noun.split(' ').at(-1) as string;

/**
 * Stands in for a secret the service masks and the environment does not give: unlike the masked
 * `""`, it differs from the account, so the next diff is predicted to send it. Never hashed.
 */
const UNKNOWN_SECRET = '\ufdd0monitor:unknown-secret';

/** A state entry's hash for a recovered resource whose code differs from the account: never a desired hash. */
const RECOVERED_HASH = 'recovered';

function globToRegExp(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}

function selected(kind: ResourceKind, r: LiveResource, filters: ImportFilters): boolean {
  if (filters.kinds !== undefined && filters.kinds.length > 0 && !filters.kinds.includes(kind)) return false;
  if (filters.ids !== undefined && filters.ids.length > 0 && !filters.ids.includes(String(r.id)))
    return false;
  if (filters.names !== undefined && filters.names.length > 0) {
    const name = displayNameOf(kind, r) ?? '';
    if (!filters.names.some((glob) => globToRegExp(glob).test(name))) return false;
  }
  if (filters.tags !== undefined && filters.tags.length > 0) {
    const tags = Array.isArray(r.tags) ? r.tags : [];
    if (!filters.tags.some((t) => tags.includes(t))) return false;
  }
  return true;
}

type ConstructClass = new (logicalId: string, props: object) => constructs.Construct<object>;
type RemoteFactory = { fromId(id: string | number): unknown };

function constructClass(name: string): ConstructClass & Partial<RemoteFactory> {
  const cls = (constructs as unknown as Record<string, unknown>)[name];
  if (typeof cls !== 'function') throw new Error(`@monitor/constructs has no construct ${name}`);
  return cls as ConstructClass & Partial<RemoteFactory>;
}

const isPlainObject = (v: unknown): v is { [key: string]: PropValue } =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !isRefValue(v) && !isSecretValue(v);

/** Every key of `expected` is in `actual`, at every level: leaving a prop out did not drop a field. */
function keepsShape(expected: unknown, actual: unknown): boolean {
  if (Array.isArray(expected))
    return Array.isArray(actual) && expected.every((item, i) => keepsShape(item, actual[i]));
  if (expected === null || typeof expected !== 'object') return true;
  if (actual === null || typeof actual !== 'object') return false;
  return Object.entries(expected).every(
    ([key, value]) =>
      key in (actual as object) && keepsShape(value, (actual as Record<string, unknown>)[key]),
  );
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
  const filters = options.filters ?? {};
  const secrets = secretHasher(options.secretKey, state.salt);
  const otherOwners = options.otherOwners ?? new ByPhysicalId<string>();
  const ownedHere = ByPhysicalId.of(Object.values(state.resources), (e) => [e.kind, e.physicalId]);

  // Constructs of the code with no state entry (their own or an alias's) find their resource again.
  const recovered: RecoveredResource[] = [];
  const recoveredLive = new Map<string, { d: DesiredResource; r: LiveResource; byContent: boolean }>();
  const taken = new ByPhysicalId<true>();
  for (const d of code) {
    const keys = [d.logicalId, ...d.options.aliases].map((l) => stateKey(d.kind, l));
    if (keys.some((k) => state.resources[k] !== undefined)) continue;
    const natural = naturalKeyIn(KINDS[d.kind], d.payload);
    const free = (r: LiveResource) =>
      !ownedHere.has(d.kind, r.id) && !otherOwners.has(d.kind, r.id) && !taken.has(d.kind, r.id);
    const match =
      natural !== undefined
        ? live[d.kind].find((r) => free(r) && naturalKeyIn(KINDS[d.kind], r)?.key === natural.key)
        : live[d.kind].find((r) => free(r) && isCreatedFrom(d.kind, d.payload, r));
    if (match === undefined) continue;
    taken.set(d.kind, match.id, true);
    recoveredLive.set(stateKey(d.kind, d.logicalId), { d, r: match, byContent: natural === undefined });
  }

  // What is imported: what nobody owns and the filters select.
  const ownedElsewhere: ImportPlan['ownedElsewhere'] = [];
  const chosen: { kind: ResourceKind; r: LiveResource }[] = [];
  if (options.recoverOnly !== true) {
    for (const kind of RESOURCE_KINDS) {
      for (const r of live[kind]) {
        if (ownedHere.has(kind, r.id) || taken.has(kind, r.id) || !selected(kind, r, filters)) continue;
        const project = otherOwners.tryFind(kind, r.id);
        const name = displayNameOf(kind, r);
        if (project !== undefined) {
          ownedElsewhere.push({ kind, physicalId: r.id, ...(name === undefined ? {} : { name }), project });
          continue;
        }
        chosen.push({ kind, r });
      }
    }
  }

  // Names: variables unique across the generated modules, logical ids unique per kind.
  const variables = new UniqueNames();
  const logicalIds = new Map<ResourceKind, UniqueNames>(
    RESOURCE_KINDS.map((kind) => [
      kind,
      new UniqueNames(
        [
          ...code.filter((d) => d.kind === kind).flatMap((d) => [d.logicalId, ...d.options.aliases]),
          ...Object.values(state.resources)
            .filter((e) => e.kind === kind)
            .map((e) => e.logicalId),
        ],
        '-',
      ),
    ]),
  );
  const envNames = new UniqueNames([], '_');
  const importSecrets: ImportSecret[] = [];
  const resources: ImportedResource[] = [];
  const byLive = new ByPhysicalId<ImportedResource>();
  for (const { kind, r } of chosen) {
    const name = displayNameOf(kind, r);
    const source = constructs.CONSTRUCT_SOURCES[kind].source(markSecrets(kind, r));
    const words = wordsOf(name ?? '');
    // What tells constructs of a kind apart follows the name: `oncallEmail`, `paymentsSlackApp`.
    const variableWords = [...words, ...wordsOf(source.qualifier ?? '')];
    const variable = variables.take(camelCase(variableWords, fallbackWord(kind)));
    const logicalId = (logicalIds.get(kind) as UniqueNames).take(
      kebabCase(words.length > 0 ? words : wordsOf(variable), fallbackWord(kind)),
    );
    const props = nameSecrets(source.props as Props, (secret) => {
      const wanted = constantCase(variable, envField(secret.path));
      // MONITOR_* are monitor's own variables (MONITOR_API_KEY): never one of the project's secrets.
      const envName = envNames.take(wanted.startsWith('MONITOR_') ? `SECRET_${wanted}` : wanted);
      importSecrets.push({
        env: envName,
        kind,
        logicalId,
        path: secret.path,
        masked: secret.masked,
        set: (env[envName] ?? '') !== '',
      });
      return envName;
    }) as Props;
    const tags = Array.isArray(r.tags) ? r.tags.filter((t): t is string => typeof t === 'string') : [];
    const module =
      options.groupBy === 'tag' && tags.length > 0
        ? kebabCase(wordsOf(tags[0] as string), 'tag')
        : constructs.CONSTRUCT_SOURCES[kind].module;
    const resource: ImportedResource = {
      kind,
      construct: source.construct,
      logicalId,
      variable,
      physicalId: r.id,
      ...(name === undefined ? {} : { name }),
      module,
      props,
    };
    resources.push(resource);
    byLive.set(kind, r.id, resource);
  }

  // A string that names an imported resource where the construct takes that resource too (a
  // window's tag naming a group) becomes its constant, as a construct library would write it. Not
  // across tag modules: two of them could import each other.
  if (options.groupBy !== 'tag') refersByName(resources);

  // Physical ids of everything the generated code and the code refer to by logical id.
  const ids = new Map<string, string | number>();
  for (const e of Object.values(state.resources)) ids.set(stateKey(e.kind, e.logicalId), e.physicalId);
  for (const [key, { r }] of recoveredLive) ids.set(key, r.id);
  for (const res of resources) ids.set(stateKey(res.kind, res.logicalId), res.physicalId);

  // The generated constructs, made in memory as the generated code makes them, and synthesized.
  const instances = new Map<string, constructs.Construct<object>>();
  const runtime = (value: PropValue): unknown => {
    if (isRefValue(value)) {
      const target = byLive.tryFind(value.kind, value.physicalId);
      const instance =
        target === undefined ? undefined : instances.get(stateKey(target.kind, target.logicalId));
      if (instance !== undefined) return instance;
      // Each kind that others refer to has a class of its name with `fromId`.
      return constructClass(value.kind).fromId?.(value.physicalId);
    }
    if (isSecretValue(value)) {
      const given = value.env === undefined ? undefined : env[value.env];
      if (given !== undefined && given !== '') return given;
      return value.masked ? UNKNOWN_SECRET : value.value;
    }
    if (Array.isArray(value)) return value.map(runtime);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, runtime(v)]));
    return value;
  };
  const synthOne = (res: ImportedResource, props: Props, validate = true) => {
    const session = constructs.createSession({ captureLocations: false });
    let instance: constructs.Construct<object>;
    try {
      instance = new (constructClass(res.construct))(res.logicalId, runtime(props) as object);
    } finally {
      constructs.closeSession();
    }
    const {
      resources: [desired],
      diagnostics,
    } = constructs.synth(
      { defaults: options.defaults as constructs.SynthOptions['defaults'], validate },
      session,
    );
    return { instance, desired: desired as DesiredResource, diagnostics };
  };
  const liveById = ByPhysicalId.of(chosen, ({ kind, r }) => [kind, r.id]);
  const live1 = (res: ImportedResource) => liveById.find(res.kind, res.physicalId).r;
  // A trial is compared, never sent: the schema checks the final props, once (below).
  const matches = (res: ImportedResource, props: Props, expected: DesiredResource) => {
    const { desired, diagnostics } = synthOne(res, props, false);
    if (diagnostics.some((d) => d.severity === 'error')) return false;
    if (!keepsShape(expected.payload, desired.payload)) return false;
    const changes: Change[] = [];
    diffPayload(
      resolveRefs(desired.payload, ids) as Record<string, unknown>,
      live1(res),
      { kind: KINDS[res.kind], secretUnchanged: () => true },
      changes,
    );
    return changes.length === 0;
  };

  const diagnostics: Diagnostic[] = [];
  const importedDesired: DesiredResource[] = [];
  const byReferenceOrder = [...resources].sort(
    (a, b) => RESOURCE_KINDS.indexOf(a.kind) - RESOURCE_KINDS.indexOf(b.kind),
  );
  for (const res of byReferenceOrder) {
    const full = synthOne(res, res.props);
    res.props = minimize(res.props, (candidate) => matches(res, candidate, full.desired));
    const final = synthOne(res, res.props);
    diagnostics.push(...final.diagnostics);
    instances.set(stateKey(res.kind, res.logicalId), final.instance);
    importedDesired.push(final.desired);
  }

  // State entries: what apply would have recorded had it written these payloads.
  const entries: Record<string, StateEntry> = {};
  const secretHashesOf = (kind: ResourceKind, payload: Record<string, unknown>, skip: ReadonlySet<string>) =>
    Object.fromEntries(
      Object.entries(secretValues(kind, resolveRefs(payload, ids) as Record<string, unknown>)).flatMap(
        ([path, value]) => {
          const hash =
            value === '' || value === UNKNOWN_SECRET || skip.has(path) ? undefined : secrets.hash(value);
          return hash === undefined ? [] : [[path, hash]];
        },
      ),
    );
  for (const [i, d] of importedDesired.entries()) {
    const live = liveById.find(d.kind, (byReferenceOrder[i] as ImportedResource).physicalId).r;
    entries[stateKey(d.kind, d.logicalId)] = {
      kind: d.kind,
      logicalId: d.logicalId,
      physicalId: (byReferenceOrder[i] as ImportedResource).physicalId,
      appliedHash: appliedHash(d.kind, d.payload, secrets),
      secretHashes: secretHashesOf(d.kind, d.payload, new Set()),
      protect: false,
      ...identityEntry(d.kind, live),
      fieldHashes: recordedFieldHashes(
        fieldHashesOf(d.kind, d.payload, Object.keys(d.payload), secrets),
        d.kind,
        live,
        secrets,
      ),
    };
  }
  for (const [key, { d, r }] of recoveredLive) {
    // What the service masks cannot be told from the account: the next deploy sends it once.
    const masked = new Set(maskedPaths(d.kind, r));
    entries[key] = {
      kind: d.kind,
      logicalId: d.logicalId,
      physicalId: r.id,
      appliedHash: RECOVERED_HASH,
      secretHashes: secretHashesOf(d.kind, d.payload, masked),
      protect: d.options.protect,
      ...identityEntry(d.kind, r),
    };
  }

  // The next diff, with the generated code and the new entries: it should change nothing imported.
  const after = { ...state, resources: { ...state.resources, ...entries } };
  const check = plan([...code, ...importedDesired], live, after, {
    now: options.now,
    secretKey: options.secretKey,
    otherOwners,
  });
  const changed = new Map(check.operations.map((op) => [stateKey(op.kind, op.logicalId), op]));
  const remaining = resources.flatMap((res) => changed.get(stateKey(res.kind, res.logicalId)) ?? []);
  for (const [key, { d, r, byContent }] of recoveredLive) {
    const op = changed.get(key);
    const changes = op !== undefined && op.action !== 'delete' && 'changes' in op ? op.changes.length : 0;
    // Matching the code, it is what was applied: later changes outside monitor show as drift.
    if (op === undefined) (entries[key] as StateEntry).appliedHash = appliedHash(d.kind, d.payload, secrets);
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

  return {
    resources,
    recovered,
    secrets: importSecrets,
    ownedElsewhere,
    entries,
    remaining,
    diagnostics,
  };
}

/** Strings of the props a construct's source names (`namedBy`) that name an imported resource become references to it. */
function refersByName(resources: readonly ImportedResource[]): void {
  const byName = new Map<string, ImportedResource>();
  for (const res of resources) {
    const key = `${res.kind}\u0000${res.name}`;
    if (res.name !== undefined && !byName.has(key)) byName.set(key, res);
  }
  for (const res of resources) {
    for (const { prop, kind } of constructs.CONSTRUCT_SOURCES[res.kind].namedBy ?? []) {
      const value = res.props[prop];
      if (!Array.isArray(value)) continue;
      res.props[prop] = value.map((item) => {
        const named = typeof item === 'string' ? byName.get(`${kind}\u0000${item}`) : undefined;
        return named === undefined ? item : constructs.sourceRef(kind, named.physicalId);
      });
    }
  }
}

/** What a sensitive field adds to its variable's name: `API_TOKEN`, `SERVICE_KEY`, `HEADER_AUTHORIZATION`. */
function envField(path: string): string {
  return path
    .replace(/^config\./, '')
    .replace(/^environmentVariables\[(.*)\]\.value$/, '$1')
    .replace(/^(?:.*\.)?headers\[(.*)\]\.value$/, 'header $1')
    .replace(/^(?:.*\.)?queryParameters\[(.*)\]\.value$/, 'query $1');
}

/** Give every secret in `props` its environment variable name. */
function nameSecrets(value: PropValue, name: (secret: SecretValue) => string): PropValue {
  if (isSecretValue(value)) return { ...value, env: name(value) };
  if (isRefValue(value) || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => nameSecrets(v, name));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, nameSecrets(v, name)]));
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

/**
 * `props` without every field whose absence `same` accepts: top-level fields first, then the
 * fields of nested objects and of the objects in lists, one at a time.
 */
function minimize(props: Props, same: (candidate: Props) => boolean): Props {
  const current = structuredClone(props) as Props;
  const tryFields = (holder: { [key: string]: PropValue }) => {
    const order = Object.keys(holder);
    for (const key of order) {
      const value = holder[key] as PropValue;
      delete holder[key];
      if (same(current)) continue;
      holder[key] = value;
      if (isPlainObject(value)) tryFields(value);
      else if (Array.isArray(value)) for (const item of value) if (isPlainObject(item)) tryFields(item);
    }
    // Put what stayed back in the service's order (a kept field went to the end when restored).
    for (const key of order) {
      if (!(key in holder)) continue;
      const value = holder[key] as PropValue;
      delete holder[key];
      holder[key] = value;
    }
  };
  tryFields(current);
  return current;
}
