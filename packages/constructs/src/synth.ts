import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  fieldPaths,
  formatIssuePath,
  isFieldPath,
  KINDS,
  type KindDefinition,
  messageRedactor,
  nearest,
  rulePathOf,
  sensitiveValues,
} from '@monitor/api/definitions';
import type { ProjectDefaults } from './config.js';
import {
  type Construct,
  type DesiredResource,
  type Diagnostic,
  type FileRef,
  isPayloadRef,
  type PayloadRef,
  type ProjectPayloadRef,
  refKey,
  replaceRefs,
  type SynthContext,
} from './construct.js';
import { missingEnv, unsetEnvName } from './env.js';
import type { PolicyException } from './policy.js';
import {
  CALLER_LOCATOR,
  currentSession,
  isConstruct,
  isProjectConstructRef,
  isRemote,
  OPTION_PROBLEMS,
  PROP_PATH,
  type ResourceKind,
  type Session,
  type SourceLocation,
  SYNTHESIZE,
  withCallers,
} from './session.js';

export const LOGICAL_ID_PATTERN = /^[A-Za-z0-9_\-/#.]+$/;

/** A valid stand-in for a reference to `kind`, so that the schemas can check the rest of a payload. */
function placeholder(kind: ResourceKind | undefined): string | number {
  return kind !== undefined && KINDS[kind]?.operations.idType === 'string' ? 'ref' : 1;
}

export interface SynthOptions {
  /**
   * The project's own name (`projectName`): a `fromProject` reference to it is a problem, since
   * the construct itself is at hand.
   */
  project?: string;
  /** The config's per-kind defaults. */
  defaults?: ProjectDefaults;
  /** Map where the runtime saw a `new` call to the source position (the loader's source maps). */
  mapLocation?: (location: SourceLocation) => SourceLocation;
  /** Read a file prop's file. @default fs.readFileSync(path, 'utf8') */
  readFile?: (path: string) => string;
  /**
   * Check each payload against its kind's schema. Off only where the payload is compared, never
   * sent or reported (`monitor import` trying which props it can leave out). @default true
   */
  validate?: boolean;
  /**
   * Payloads that passed the schema check before (a cache the loader keeps between runs): one
   * found there is not checked again, and each that passes is added.
   */
  validated?: ValidatedPayloads;
}

/** Payloads known to pass their kind's schema, by a key of their content. */
export interface ValidatedPayloads {
  /** The key of a payload; undefined when it cannot be kept (then it is always checked). */
  keyOf(kind: ResourceKind, payload: Record<string, unknown>): string | undefined;
  has(key: string): boolean;
  add(key: string): void;
}

export interface SynthResult {
  resources: DesiredResource[];
  diagnostics: Diagnostic[];
}

/** `value` with references (to this project's constructs or another's) replaced by placeholders; copies only what holds a reference. */
function withPlaceholders(value: unknown): unknown {
  const stand = (ref: PayloadRef | ProjectPayloadRef) => placeholder(ref.$ref.split(':')[0] as ResourceKind);
  return replaceRefs(value, stand, stand);
}

const readUtf8 = (path: string) => readFileSync(path, 'utf8');
/**
 * Made out here, not in `synth`: every resource's locator keeps its `mapLocation`, and a function
 * made in `synth` would keep what `synth`'s closures share (every construct, with their props).
 */
const unmapped = (location: SourceLocation) => location;

/**
 * Turn the session's constructs into desired resources: plain JSON, fully defaulted, references
 * as logical ids. Collects every problem as a diagnostic instead of stopping at the first.
 */
export function synth(options: SynthOptions = {}, session: Session = currentSession()): SynthResult {
  const mapLocation = options.mapLocation ?? unmapped;
  const resources: DesiredResource[] = [];
  const diagnostics: Diagnostic[] = [];
  const constructs = session.constructs.filter(
    (c): c is Construct<object> => isConstruct(c) && SYNTHESIZE in c,
  );
  const run: SynthRun = {
    options,
    readFile: options.readFile ?? readUtf8,
    mapLocation,
    seen: new Map(),
    aliasOwners: new Map(),
    missing: missingEnv(session),
    attributed: new Set(),
  };
  // Made once: a key made again is a new string, hashed again by every lookup (30,000 constructs).
  const keys: string[] = [];
  for (const c of constructs) {
    const key = refKey(c.kind, c.logicalId);
    keys.push(key);
    if (!run.seen.has(key)) run.seen.set(key, c);
  }
  for (const [i, c] of constructs.entries()) {
    const done = synthConstruct(c, keys[i] as string, run);
    if (done.resource !== undefined) resources.push(done.resource);
    diagnostics.push(...done.diagnostics);
  }
  diagnostics.push(...uniqueKeyClashes(resources));
  for (const { name, location } of run.missing) {
    if (run.attributed.has(name)) continue;
    diagnostics.push({
      severity: 'error',
      path: '',
      message: `environment variable ${name} is not set (requiredEnv)`,
      location: location === undefined ? undefined : mapLocation(location),
      hint: `set ${name} before running monitor: in CI from a secret, locally in your shell`,
    });
  }
  return { resources, diagnostics: diagnostics.sort(byPosition) };
}

/** What the constructs of one synthesis share: the options, who took which key, what is unset. */
interface SynthRun {
  options: SynthOptions;
  readFile: (path: string) => string;
  mapLocation: (location: SourceLocation) => SourceLocation;
  /** The first construct of each `Kind:logicalId`. */
  seen: Map<string, Construct<object>>;
  /** The construct each alias (as `Kind:alias`) belongs to. */
  aliasOwners: Map<string, Construct<object>>;
  missing: ReturnType<typeof missingEnv>;
  /** The unset `requiredEnv` variables reported at a prop. */
  attributed: Set<string>;
}

type Problem = (path: string, message: string, severity?: 'error' | 'warning', hint?: string) => void;

/** How a construct's problems are reported: at a prop's path, or at an option's (`new`'s third argument). */
interface Problems {
  prop: Problem;
  option: Problem;
}

/** One construct: its resource (none when it could not be synthesized) and its diagnostics. */
function synthConstruct(
  c: Construct<object>,
  key: string,
  run: SynthRun,
): { resource: DesiredResource | undefined; diagnostics: Diagnostic[] } {
  // Held until the payload is known: then no message may quote what the kind marks sensitive.
  const own: Diagnostic[] = [];
  const construct = c.constructor.name;
  const where = locator(c, run.mapLocation);
  const problem: Problem = (path, message, severity = 'error', hint = undefined) =>
    own.push({
      severity,
      construct,
      logicalId: c.logicalId,
      location: where(),
      path,
      message,
      ...(hint === undefined ? {} : { hint }),
    });
  const optionProblem: Problem = (path, message, severity = 'error') =>
    own.push({
      severity,
      construct,
      logicalId: c.logicalId,
      location: where(),
      path,
      pathIn: 'options',
      message,
    });
  const problems: Problems = { prop: problem, option: optionProblem };
  reportOptionProblems(c, own, where);
  checkIdentity(c, key, run, problems);
  const dependsOn = new Set<string>();
  let payload: Record<string, unknown>;
  try {
    payload = c[SYNTHESIZE](synthContext(c, run, where, dependsOn, problem));
  } catch (e) {
    problem('', `could not be synthesized: ${(e as Error).message}`);
    return { resource: undefined, diagnostics: own };
  }
  reportPayloadIssues(c, payload, run, problem);
  const resource: DesiredResource = {
    kind: c.kind,
    construct,
    logicalId: c.logicalId,
    payload,
    dependsOn: [...dependsOn].sort(),
    options: {
      protect: c.options.protect,
      aliases: [...c.options.aliases],
      adopt: c.options.adopt,
      ignoreChanges: checkIgnoreChanges(c.kind, c.options.ignoreChanges, payload, problems.option),
      policyExceptions: checkPolicyExceptions(c.options.policyExceptions, problems.option),
    },
  };
  LOCATORS.set(resource, where);
  Object.defineProperty(resource, 'location', { get: resourceLocation, enumerable: true });
  checkKindRules(c, payload, problems);
  return { resource, diagnostics: withoutSecrets(c.kind, payload, own) };
}

/** Options written among the props, and unknown options: found by `new`, each with its hint. */
function reportOptionProblems(
  c: Construct<object>,
  own: Diagnostic[],
  where: () => SourceLocation | undefined,
): void {
  // A construct of another copy of this package, from before options moved, has none.
  for (const p of c[OPTION_PROBLEMS] ?? []) {
    own.push({
      severity: 'error',
      construct: c.constructor.name,
      logicalId: c.logicalId,
      location: where(),
      ...p,
    });
  }
}

/** The logical id's form, its uniqueness, and its aliases. */
function checkIdentity(c: Construct<object>, key: string, run: SynthRun, problems: Problems): void {
  const { prop: problem, option: optionProblem } = problems;
  if (!LOGICAL_ID_PATTERN.test(c.logicalId)) {
    problem('', `logical id "${c.logicalId}" is invalid: use letters, digits and _ - / # . only`);
  }
  const first = run.seen.get(key);
  if (first !== c) {
    const where =
      first?.location === undefined ? '' : ` (first declared at ${fmt(run.mapLocation(first.location))})`;
    problem('', `duplicate logical id "${c.logicalId}": another ${c.kind} already uses it${where}`);
  }
  for (const alias of c.options.aliases) {
    const aliasKey = refKey(c.kind, alias);
    if (alias === c.logicalId) optionProblem('aliases', `alias "${alias}" is the construct's own logical id`);
    else if (run.seen.has(aliasKey))
      optionProblem('aliases', `alias "${alias}" clashes with the logical id of another ${c.kind}`);
    else if (run.aliasOwners.has(aliasKey) && run.aliasOwners.get(aliasKey) !== c) {
      optionProblem(
        'aliases',
        `alias "${alias}" is also an alias of ${run.aliasOwners.get(aliasKey)?.toString()}`,
      );
    } else run.aliasOwners.set(aliasKey, c);
  }
}

/** What a construct's synthesis asks of the run: its defaults, references and file texts. */
function synthContext(
  c: Construct<object>,
  run: SynthRun,
  where: () => SourceLocation | undefined,
  dependsOn: Set<string>,
  problem: Problem,
): SynthContext {
  return {
    defaults: (run.options.defaults?.[c.kind as keyof ProjectDefaults] ?? {}) as Record<string, unknown>,
    problem: (path, message) => problem(path, message),
    ref: (value, expected, path): PayloadRef | ProjectPayloadRef | string | number | undefined => {
      // Reported once here; a stand-in of the right type keeps the schema from reporting it again.
      const invalidRef = { $ref: `${expected}:` };
      if (isProjectConstructRef(value))
        return projectPayloadRef(value, expected, path, run, problem) ?? invalidRef;
      if (isRemote(value)) {
        if (value.kind === expected) return value.physicalId;
        problem(path, `expected a ${expected}, got ${value.kind}.fromId(${String(value.physicalId)})`);
        return invalidRef;
      }
      if (isConstruct(value)) {
        if (value.kind === expected) {
          const target = refKey(expected, value.logicalId);
          dependsOn.add(target);
          return { $ref: target };
        }
        problem(path, `expected a ${expected}, got ${String(value)}`);
        return invalidRef;
      }
      problem(
        path,
        `expected a ${expected} construct, ${expected}.fromId(...) or ${expected}.fromProject(...), got ${typeof value}`,
      );
      return invalidRef;
    },
    text: (value, path) => fileText(value, path, where, run.readFile, problem),
  };
}

/**
 * Another project's construct as a payload value, `{ $project, $ref: 'Kind:logicalId' }`; undefined
 * (and a problem at `path`) when it is of another kind, its project or logical id is malformed, or
 * it names this very project.
 */
function projectPayloadRef(
  value: { kind: ResourceKind; project: unknown; logicalId: unknown },
  expected: ResourceKind,
  path: string,
  run: SynthRun,
  problem: Problem,
): ProjectPayloadRef | undefined {
  const { kind, project, logicalId } = value;
  const written = `${kind}.fromProject(${JSON.stringify(project)}, ${JSON.stringify(logicalId)})`;
  if (kind !== expected) {
    problem(path, `expected a ${expected}, got ${written}`);
    return undefined;
  }
  if (typeof project !== 'string' || project.trim() === '' || project !== project.trim()) {
    problem(
      path,
      `${written}: the project must be the projectName of another project`,
      'error',
      `name the project as its monitor.config.ts does, e.g. ${expected}.fromProject('platform', 'its-logical-id')`,
    );
    return undefined;
  }
  if (typeof logicalId !== 'string' || !LOGICAL_ID_PATTERN.test(logicalId)) {
    problem(
      path,
      `${written}: the logical id is invalid (letters, digits and _ - / # . only)`,
      'error',
      `give the construct's logical id in project "${project}": the first argument of its new ${expected}(…)`,
    );
    return undefined;
  }
  if (project === run.options.project) {
    const own = run.seen.get(refKey(expected, logicalId));
    problem(
      path,
      `${written} names this project ("${project}"): fromProject is for another project's constructs`,
      'error',
      own === undefined
        ? `use the construct itself: this project has no ${expected} "${logicalId}"; declare it, or name the project that owns it`
        : `use the construct itself: import ${own.toString()} from where it is declared and pass it here`,
    );
    return undefined;
  }
  return { $project: project, $ref: refKey(expected, logicalId) };
}

/** A text prop: the string itself, or the file it names (relative to the construct's file). */
function fileText(
  value: string | FileRef | null | undefined,
  path: string,
  where: () => SourceLocation | undefined,
  readFile: (path: string) => string,
  problem: Problem,
): string | null | undefined {
  if (value === null || value === undefined || typeof value === 'string') return value;
  const file = (value as FileRef).file;
  if (typeof file !== 'string') {
    problem(path, 'must be a string or { file: "relative/path" }');
    return undefined;
  }
  const from = where()?.file;
  const absolute = from === undefined ? resolve(file) : resolve(dirname(from), file);
  try {
    return readFile(absolute);
  } catch (e) {
    problem(
      path,
      `cannot read file "${file}" (resolved to ${absolute}): ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
    return undefined;
  }
}

/** The schema's complaints about the payload, each at its prop; an unset requiredEnv as itself. */
function reportPayloadIssues(
  c: Construct<object>,
  payload: Record<string, unknown>,
  run: SynthRun,
  problem: Problem,
): void {
  const result = checkPayload(c.kind, payload, run.options);
  const propPath = (path: string) => c[PROP_PATH](path);
  // An unset requiredEnv is the problem at its prop, not the schema's complaint about the stand-in.
  const unset = run.missing.length === 0 ? new Map<string, string>() : unsetEnvPaths(payload);
  for (const [path, name] of unset) {
    run.attributed.add(name);
    problem(propPath(path), `environment variable ${name} is not set (requiredEnv)`);
  }
  if (result.success) return;
  for (const issue of result.error.issues) {
    if (unset.has(formatIssuePath(issue.path))) continue;
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys)
        problem(
          propPath(formatIssuePath([...issue.path, k])),
          `unknown property "${k}" of ${c.constructor.name}`,
        );
    } else {
      problem(propPath(formatIssuePath(issue.path)), issue.message);
    }
  }
}

/** What the kind's definition asks beyond the schema: adopt needs a natural key, keyed lists unique keys. */
function checkKindRules(c: Construct<object>, payload: Record<string, unknown>, problems: Problems): void {
  const problem = problems.prop;
  const definition = KINDS[c.kind];
  if (c.options.adopt && definition.naturalKey === undefined) {
    problems.option(
      'adopt',
      `adopt has no effect on a ${c.kind}: it has no natural key to find an existing one by (use monitor import)`,
      'warning',
    );
  }
  for (const list of keyedLists(definition)) {
    eachDuplicateKey(payload, list, (path, itemKey) =>
      problem(
        c[PROP_PATH](path),
        `${list.keyField} "${itemKey}" appears more than once: each must be unique`,
      ),
    );
  }
}

/**
 * Where a construct was made, mapped through the source map only when something needs it: a
 * diagnostic, a file prop, a reader of the resource's `location`. Made apart from synthesis, so
 * that what a resource keeps to answer it is the captured stack and the mapping, not the construct.
 */
function locator(
  c: Construct<object>,
  mapLocation: (location: SourceLocation) => SourceLocation,
): () => SourceLocation | undefined {
  // A construct of another copy of this package may not have one: then it is kept whole.
  const made: { readonly location: SourceLocation | undefined } =
    typeof c[CALLER_LOCATOR] === 'function' ? c[CALLER_LOCATOR]() : c;
  let mapped: SourceLocation | undefined;
  return () => {
    const location = made.location;
    if (mapped === undefined && location !== undefined) {
      const { callers, ...own } = location;
      mapped = mapLocation(own);
      if (callers !== undefined && callers.length > 0) mapped = withCallers(mapped, callers.map(mapLocation));
    }
    return mapped;
  };
}

/** Each resource's locator, for the getter that all resources share (one getter each would give each its own hidden class). */
const LOCATORS = new WeakMap<object, () => SourceLocation | undefined>();

function resourceLocation(this: DesiredResource): SourceLocation | undefined {
  return LOCATORS.get(this)?.();
}

/** The schema check of a payload, unless it is off or the payload passed it before. */
function checkPayload(
  kind: ResourceKind,
  payload: Record<string, unknown>,
  { validate, validated }: SynthOptions,
): { success: true } | ReturnType<KindDefinition['createSchema']['safeParse']> {
  if (validate === false) return { success: true };
  const key = validated?.keyOf(kind, payload);
  if (key !== undefined && validated?.has(key)) return { success: true };
  const result = KINDS[kind].createSchema.safeParse(withPlaceholders(payload));
  if (result.success && key !== undefined) validated?.add(key);
  return result;
}

/** Where a payload holds what an unset `requiredEnv` returned: path → variable. */
function unsetEnvPaths(payload: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (value: unknown, path: string) => {
    const name = unsetEnvName(value);
    if (name !== undefined) out.set(path, name);
    else if (Array.isArray(value)) for (const [i, item] of value.entries()) walk(item, `${path}[${i}]`);
    else if (value !== null && typeof value === 'object')
      for (const [key, field] of Object.entries(value)) walk(field, path === '' ? key : `${path}.${key}`);
  };
  walk(payload, '');
  return out;
}

/** A keyed list of a kind: the fields that lead to it (`[]`: through every item) and its key field. */
interface KeyedList {
  steps: { field: string; each: boolean }[];
  keyField: string;
}

const KEYED_LISTS = new WeakMap<KindDefinition, KeyedList[]>();

/** A kind's keyed lists, read once per kind, not once per construct. */
function keyedLists(definition: KindDefinition): KeyedList[] {
  let lists = KEYED_LISTS.get(definition);
  if (lists === undefined) {
    lists = Object.entries(definition.keyed).map(([path, keyField]) => {
      // A kind's definition names lists: `cards`, `cards[].services`, never the items of one.
      if (path.endsWith('[]'))
        throw new Error(`${definition.kind}: keyed list "${path}" names the items of a list, not a list`);
      return {
        steps: path.split('.').map((segment) => {
          const each = segment.endsWith('[]');
          return { field: each ? segment.slice(0, -2) : segment, each };
        }),
        keyField,
      };
    });
    KEYED_LISTS.set(definition, lists);
  }
  return lists;
}

/**
 * Each key that appears again in a `list` of `payload` (every one of them, through lists of lists),
 * with the path of the list it is in (`cards[0].services`). Allocates nothing for a list of fewer
 * than two keyed items, and names a path only for a duplicate: this runs on every keyed list of
 * every construct, and almost none has one.
 */
function eachDuplicateKey(
  payload: Record<string, unknown>,
  list: KeyedList,
  found: (path: string, key: string) => void,
): void {
  duplicatesUnder(payload, list, 0, [], found);
}

/** `eachDuplicateKey` from `holder`, the object at step `depth`; `indices` of the lists above it. */
function duplicatesUnder(
  holder: unknown,
  list: KeyedList,
  depth: number,
  indices: number[],
  found: (path: string, key: string) => void,
): void {
  if (holder === null || typeof holder !== 'object') return;
  const step = list.steps[depth] as KeyedList['steps'][number];
  const inner = (holder as Record<string, unknown>)[step.field];
  if (!Array.isArray(inner)) {
    if (depth < list.steps.length - 1 && !step.each) duplicatesUnder(inner, list, depth + 1, indices, found);
    return;
  }
  if (depth < list.steps.length - 1) {
    if (!step.each) return;
    for (let i = 0; i < inner.length; i++) {
      indices.push(i);
      duplicatesUnder(inner[i], list, depth + 1, indices, found);
      indices.pop();
    }
    return;
  }
  if (inner.length < 2) return;
  let seen: Set<string> | undefined;
  for (const item of inner) {
    const key = keyText(item, list.keyField);
    if (key === undefined) continue;
    seen ??= new Set();
    if (seen.has(key)) found(pathOf(list, indices), key);
    seen.add(key);
  }
}

/** The path of a keyed list reached through the items at `indices`: `cards[1].services`. */
function pathOf(list: KeyedList, indices: readonly number[]): string {
  let i = 0;
  return list.steps
    .map((step, depth) =>
      step.each && depth < list.steps.length - 1 ? `${step.field}[${indices[i++]}]` : step.field,
    )
    .join('.');
}

/** The key of a keyed-list item as text: a reference by its target, a value as itself. */
function keyText(item: unknown, keyField: string): string | undefined {
  if (item === null || typeof item !== 'object') return undefined;
  const key = (item as Record<string, unknown>)[keyField];
  if (key === undefined || key === null) return undefined;
  if (isPayloadRef(key)) {
    // `Kind:` alone is the stand-in of a reference already reported: never a duplicate.
    const logicalId = key.$ref.slice(key.$ref.indexOf(':') + 1);
    return logicalId === '' ? undefined : logicalId;
  }
  return typeof key === 'object' ? JSON.stringify(key) : String(key);
}

/**
 * A construct's diagnostics as they may be shown: every value its kind's definition marks
 * sensitive in `payload` is described in the message, hint and detail, never quoted.
 */
function withoutSecrets(
  kind: ResourceKind,
  payload: Record<string, unknown>,
  own: Diagnostic[],
): Diagnostic[] {
  if (own.length === 0) return own;
  const safe = messageRedactor(KINDS[kind], payload);
  return own.map((d) => ({
    ...d,
    message: safe(d.message),
    ...(d.hint === undefined ? {} : { hint: safe(d.hint) }),
    ...(d.detail === undefined ? {} : { detail: safe(d.detail) }),
  }));
}

/**
 * Two constructs of a kind with the same value of a field the service keeps unique (a dashboard's
 * `customUrl`): the second create would fail with 409 in the middle of a deploy. Both places are named.
 */
function uniqueKeyClashes(resources: readonly DesiredResource[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const first = new Map<string, DesiredResource>();
  for (const r of resources) {
    for (const field of KINDS[r.kind].uniqueKeys) {
      const value = r.payload[field];
      if (typeof value !== 'string' || value === '') continue;
      const key = `${r.kind}\u0000${field}\u0000${value.toLowerCase()}`;
      const earlier = first.get(key);
      if (earlier === undefined) {
        first.set(key, r);
        continue;
      }
      const there = earlier.location === undefined ? '' : ` at ${fmt(earlier.location)}`;
      const clash: Diagnostic = {
        severity: 'error',
        construct: r.construct,
        logicalId: r.logicalId,
        location: r.location,
        path: field,
        message: `${field} "${value}" is also the ${field} of ${earlier.construct} "${earlier.logicalId}"${there}: the service keeps it unique`,
      };
      out.push(...withoutSecrets(r.kind, r.payload, [clash]));
    }
  }
  return out;
}

/** Diagnostics in source order, then by property path: stable output for people and snapshots. */
function byPosition(a: Diagnostic, b: Diagnostic): number {
  const fa = a.location?.file ?? '';
  const fb = b.location?.file ?? '';
  if (fa !== fb) return fa < fb ? -1 : 1;
  const line = (a.location?.line ?? 0) - (b.location?.line ?? 0);
  if (line !== 0) return line;
  const column = (a.location?.column ?? 0) - (b.location?.column ?? 0);
  if (column !== 0) return column;
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

function fmt(l: SourceLocation): string {
  return `${l.file}:${l.line}:${l.column}`;
}

/**
 * The `ignoreChanges` paths that name something of the kind (`isFieldPath`); a problem, with the
 * nearest field, for each that does not. A secret inside a list entry or a nested object cannot be
 * ignored: the update carries the account's value there, and the service masks secrets.
 */
function checkIgnoreChanges(
  kind: ResourceKind,
  paths: unknown,
  payload: Record<string, unknown>,
  problem: (path: string, message: string) => void,
): string[] {
  if (!Array.isArray(paths) || paths.some((p) => typeof p !== 'string')) {
    problem('ignoreChanges', 'must be a list of field paths, e.g. ["muted", "alertSettings.reminders"]');
    return [];
  }
  if (paths.length === 0) return [];
  const def = KINDS[kind];
  const secrets = Object.keys(sensitiveValues(def, payload));
  const ok: string[] = [];
  for (const [i, path] of (paths as string[]).entries()) {
    const at = `ignoreChanges[${i}]`;
    if (!isFieldPath(def, path)) {
      const near = nearest(
        rulePathOf(path),
        [...fieldPaths(def)].filter((p) => !p.endsWith('[]')),
      );
      problem(
        at,
        `"${path}" is not a field of a ${def.noun}${near === undefined ? '' : `; did you mean "${near}"?`}`,
      );
      continue;
    }
    const top = path.split(/[.[]/)[0] as string;
    const holdsSecret = secrets.some(
      (s) => s === path || s.startsWith(`${path}.`) || s.startsWith(`${path}[`),
    );
    if (path !== top && holdsSecret) {
      problem(
        at,
        `"${path}" holds a secret inside ${top}: the service masks it, so it cannot be kept on update; ignore the whole field "${top}"`,
      );
      continue;
    }
    ok.push(path);
  }
  return ok;
}

/**
 * The `policyExceptions` that name a policy and give a reason; a problem for each that does not
 * (a waiver with no reason is how findings disappear unreviewed). Whether the policy exists is
 * checked where the policies are known: the engine.
 */
function checkPolicyExceptions(
  exceptions: unknown,
  problem: (path: string, message: string) => void,
): PolicyException[] {
  const example = "[{ policy: 'group-without-alert-channel', reason: 'why it does not apply here' }]";
  if (!Array.isArray(exceptions)) {
    problem('policyExceptions', `must be a list of { policy, reason }, e.g. ${example}`);
    return [];
  }
  const ok: PolicyException[] = [];
  for (const [i, exception] of exceptions.entries()) {
    const at = `policyExceptions[${i}]`;
    const { policy, reason } = (exception ?? {}) as Partial<Record<keyof PolicyException, unknown>>;
    if (typeof policy !== 'string' || policy.trim() === '') {
      problem(at, `must name the policy it waives: { policy: 'policy-name', reason: '…' }`);
      continue;
    }
    if (typeof reason !== 'string' || reason.trim() === '') {
      problem(
        at,
        `the exception to "${policy}" has no reason: say why the policy does not apply to this construct (reason: '…')`,
      );
      continue;
    }
    ok.push({ policy, reason: reason.trim() });
  }
  return ok;
}
