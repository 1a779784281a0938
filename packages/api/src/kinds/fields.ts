import type { z } from '../zod.js';
import type { KindDefinition } from './definition.js';
import { objectsOf } from './schema-defs.js';
import { KIND_FACTS } from './schemas-link.js';

/** The fields of schemas and kinds: one reader for every question of that kind. */

/**
 * The fields of the object `schema` describes at `path` (`statusPageVisibility`, dots for deeper
 * ones), in the order they are declared; every variant's fields when it is a union (an alert
 * channel's types). Empty where there is no object.
 */
export function fieldsOf(schema: z.ZodType, path = ''): string[] {
  let at = [schema];
  for (const step of path.split('.').filter((s) => s !== '')) {
    at = at.flatMap(objectsOf).flatMap((shape) => (shape[step] === undefined ? [] : [shape[step]]));
  }
  return [...new Set(at.flatMap(objectsOf).flatMap((shape) => Object.keys(shape)))];
}

/**
 * The fields of a kind as paths, from its create schema: `name`, `alertSettings.reminders`,
 * `environmentVariables[].value` (`[]` for the items of a list). What `ignoreChanges` may name,
 * checked once, generically, for every kind.
 */
export function fieldPaths(def: KindDefinition): ReadonlySet<string> {
  let paths = cache.get(def);
  if (paths === undefined) {
    paths = new Set(KIND_FACTS.fieldPaths[def.kind]);
    cache.set(def, paths);
  }
  return paths;
}

const cache = new WeakMap<KindDefinition, Set<string>>();

/** `environmentVariables[API_URL].value` as a rule path: `environmentVariables[].value`. */
export function rulePathOf(path: string): string {
  return path.replace(/\[[^\]]*\]/g, '[]');
}

/**
 * Whether `path` names something of the kind: a field, or a field of a keyed list's entry named by
 * its key (`environmentVariables[API_URL].value`). Entries of lists that are not keyed have no
 * name to give (the plan compares those lists whole).
 */
export function isFieldPath(def: KindDefinition, path: string): boolean {
  if (!/^[A-Za-z_$][\w$]*(\[[^\]]+\])?(\.[A-Za-z_$][\w$]*(\[[^\]]+\])?)*$/.test(path)) return false;
  if (!fieldPaths(def).has(rulePathOf(path))) return false;
  // Each `[KEY]` must follow a list the kind matches by key.
  const entries = [...path.matchAll(/\[[^\]]+\]/g)];
  return entries.every((m) => {
    const list = rulePathOf(path.slice(0, m.index));
    return def.keyed[list] !== undefined;
  });
}
