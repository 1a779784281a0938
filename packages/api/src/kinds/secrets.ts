import type { KindDefinition, SensitivePath } from './definition.js';

type Payload = Record<string, unknown>;

/** What stands in for a sensitive value wherever a value is shown. */
export const SENSITIVE_VALUE = '(sensitive value)';

/** A plain object (not null, not a list). */
export function isRecord(v: unknown): v is Payload {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * The kind's sensitive paths as a tree, by field name and list items: walkers follow it down a
 * payload and skip every field no sensitive path goes through, without building a path string
 * for each field they pass (a policy's findings and a plan's comparison walk tens of thousands of
 * payloads).
 */
interface SensitiveNode {
  /** The fields below this one that are, or lead to, a sensitive path. */
  readonly fields: Map<string, SensitiveNode>;
  /** What the items of a list here lead to. */
  items: SensitiveNode | undefined;
  /** The rules that make the value here sensitive (each may hold under a condition only). */
  readonly rules: SensitivePath[];
}

const newNode = (): SensitiveNode => ({ fields: new Map(), items: undefined, rules: [] });

const trees = new WeakMap<KindDefinition, SensitiveNode>();

/** The tree of `def`'s sensitive paths, made once per kind. */
function sensitiveTree(def: KindDefinition): SensitiveNode {
  let root = trees.get(def);
  if (root === undefined) {
    root = newNode();
    for (const rule of def.sensitive) {
      const steps = ruleSteps(rule.path);
      if (steps === undefined) throw new Error(`${def.kind}: "${rule.path}" is not a sensitive path`);
      let node = root;
      for (const step of steps) {
        if (step === ITEMS) node = node.items ??= newNode();
        else {
          let next = node.fields.get(step);
          if (next === undefined) {
            next = newNode();
            node.fields.set(step, next);
          }
          node = next;
        }
      }
      node.rules.push(rule);
    }
    trees.set(def, root);
  }
  return root;
}

const ITEMS = Symbol('list items');

/** `a.b[].c` → `['a', 'b', ITEMS, 'c']`; undefined for what is not a rule path (`a..b`). */
function ruleSteps(rulePath: string): (string | typeof ITEMS)[] | undefined {
  const steps: (string | typeof ITEMS)[] = [];
  if (rulePath === '') return steps;
  for (const part of rulePath.split('.')) {
    let name = part;
    let lists = 0;
    while (name.endsWith('[]')) {
      name = name.slice(0, -2);
      lists++;
    }
    if (name !== '') steps.push(name);
    else if (lists === 0 || steps.length > 0) return undefined;
    for (let i = 0; i < lists; i++) steps.push(ITEMS);
  }
  return steps;
}

/** Nodes by rule path, per kind: a plan asks about the same few paths for every field it compares. */
const nodesByPath = new WeakMap<KindDefinition, Map<string, SensitiveNode | null>>();
const KEPT_PATHS = 4096;

/** The node at `rulePath`; undefined when no sensitive path goes through it. */
function nodeAt(def: KindDefinition, rulePath: string): SensitiveNode | undefined {
  let known = nodesByPath.get(def);
  if (known === undefined) {
    known = new Map();
    nodesByPath.set(def, known);
  }
  const kept = known.get(rulePath);
  if (kept !== undefined) return kept ?? undefined;
  const node = nodeBelow(sensitiveTree(def), rulePath);
  if (known.size >= KEPT_PATHS) known.clear();
  known.set(rulePath, node ?? null);
  return node;
}

/** The node at `rulePath` below `from`. */
function nodeBelow(from: SensitiveNode, rulePath: string): SensitiveNode | undefined {
  const steps = ruleSteps(rulePath);
  if (steps === undefined) return undefined;
  let node: SensitiveNode | undefined = from;
  for (const step of steps) {
    node = step === ITEMS ? node.items : node.fields.get(step);
    if (node === undefined) return undefined;
  }
  return node;
}

/**
 * The node of field `key` below `node`. A key may itself be a path (`{ 'config.url': … }`, as a
 * conflict names its field), as it was when walkers joined keys into path strings.
 */
function childOf(node: SensitiveNode, key: string): SensitiveNode | undefined {
  const child = node.fields.get(key);
  if (child !== undefined || (key.indexOf('.') === -1 && key.indexOf('[') === -1)) return child;
  return nodeBelow(node, key);
}

/** Whether the value at `node`, a field of `holder` inside `payload`, is sensitive by one of its rules. */
function appliesAt(node: SensitiveNode, holder: Payload, payload: Payload): boolean {
  return node.rules.some((s) => s.when === undefined || s.when(holder, payload));
}

/**
 * Whether the field at `rulePath` (list items as `[]`) of `holder`, inside `payload`, is a
 * credential by the kind's definition.
 */
export function isSensitive(
  def: KindDefinition,
  rulePath: string,
  holder: Payload,
  payload: Payload,
): boolean {
  const node = nodeAt(def, rulePath);
  return node !== undefined && appliesAt(node, holder, payload);
}

const join = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

/**
 * A copy of `value` (found at `rulePath` of `payload`) with every sensitive string replaced by
 * `replace(secret)`; `value` itself when nothing in it is sensitive.
 */
export function replaceSensitive(
  def: KindDefinition,
  value: unknown,
  replace: (secret: string) => string,
  rulePath = '',
  payload: Payload = isRecord(value) ? value : {},
): unknown {
  const node = nodeAt(def, rulePath);
  return node === undefined ? value : replaceUnder(node, value, replace, payload);
}

function replaceUnder(
  node: SensitiveNode,
  value: unknown,
  replace: (secret: string) => string,
  payload: Payload,
): unknown {
  if (Array.isArray(value)) {
    const items = node.items;
    return items === undefined ? value : value.map((item) => replaceUnder(items, item, replace, payload));
  }
  if (!isRecord(value) || node.fields.size === 0) return value;
  let out: Payload | undefined;
  for (const key in value) {
    const child = childOf(node, key);
    if (child === undefined || !Object.hasOwn(value, key)) continue;
    const field = value[key];
    const next =
      typeof field === 'string' && field !== '' && appliesAt(child, value, payload)
        ? replace(field)
        : replaceUnder(child, field, replace, payload);
    if (next !== field) {
      out ??= { ...value };
      out[key] = next;
    }
  }
  return out ?? value;
}

/** The payload fit to show: every sensitive value replaced by `(sensitive value)`. */
export function redactPayload(def: KindDefinition, payload: Payload): Payload {
  return replaceSensitive(def, payload, () => SENSITIVE_VALUE) as Payload;
}

/**
 * Every value at a sensitive path of `payload`, of any type (a number or an object where a string
 * belongs is still the secret someone meant to write), by its path with list indexes
 * (`config.headers[0].value`). What messages about a payload must never quote.
 */
export function sensitiveFields(
  def: KindDefinition,
  payload: Payload,
  /** The payload is a part of one: a path sensitive under a condition counts as sensitive. */
  partial = false,
): { path: string; value: unknown }[] {
  const out: { path: string; value: unknown }[] = [];
  const walk = (value: unknown, node: SensitiveNode, path: string) => {
    if (Array.isArray(value)) {
      const items = node.items;
      if (items !== undefined) for (const [i, item] of value.entries()) walk(item, items, `${path}[${i}]`);
      return;
    }
    if (!isRecord(value) || node.fields.size === 0) return;
    for (const key in value) {
      const child = childOf(node, key);
      if (child === undefined || !Object.hasOwn(value, key)) continue;
      const field = value[key];
      const sensitive = partial ? child.rules.length > 0 : appliesAt(child, value, payload);
      if (field !== undefined && field !== null && sensitive)
        out.push({ path: join(path, key), value: field });
      else walk(field, child, join(path, key));
    }
  };
  walk(payload, sensitiveTree(def), '');
  return out;
}

/**
 * The sensitive values of a payload by the path a diff names them with: keyed list items by their
 * key (`environmentVariables[TOKEN].value`, `config.headers[Authorization].value`), other list
 * items by index.
 */
export function sensitiveValues(def: KindDefinition, payload: Payload): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (value: unknown, node: SensitiveNode, rulePath: string, path: string) => {
    if (Array.isArray(value)) {
      const items = node.items;
      if (items === undefined) return;
      const keyField = def.keyed[rulePath];
      value.forEach((item, i) => {
        const name = keyField !== undefined && isRecord(item) ? String(item[keyField]) : String(i);
        walk(item, items, `${rulePath}[]`, `${path}[${name}]`);
      });
      return;
    }
    if (!isRecord(value) || node.fields.size === 0) return;
    for (const key in value) {
      const child = childOf(node, key);
      if (child === undefined || !Object.hasOwn(value, key)) continue;
      const field = value[key];
      if (typeof field === 'string' && appliesAt(child, value, payload)) out[join(path, key)] = field;
      else walk(field, child, join(rulePath, key), join(path, key));
    }
  };
  walk(payload, sensitiveTree(def), '', '');
  return out;
}
