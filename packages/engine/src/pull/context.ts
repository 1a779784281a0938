import type { ResourceKind } from '@monitor/api';
import type { DesiredResource } from '@monitor/constructs';
import { ByPhysicalId } from '../identity.js';
import { isRefValue, isSecretValue, type PropValue } from '../import/values.js';
import type { State } from '../state/state.js';
import type { RewriteContext } from './types.js';

/**
 * What the rewriting of a project's files needs to know of the project and its state: which
 * variable holds a referenced construct, how the account's values read to people, and which
 * constructs are made by code that makes others too.
 */

/** `const name = new X('logicalId', …)` and `export const …`: the variables that hold constructs. */
const DECLARATION =
  /\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*new\s+[A-Za-z_$][\w$.]*\s*\(\s*(['"`])([^'"`\n]+)\2/g;

/** The names of the variables that hold each logical id's construct, in any of `files`. */
export function variablesByLogicalId(
  files: readonly string[],
  read: (file: string) => string,
): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const file of files) {
    for (const m of read(file).matchAll(DECLARATION)) {
      const names = out.get(m[3] as string) ?? new Set<string>();
      names.add(m[1] as string);
      out.set(m[3] as string, names);
    }
  }
  return out;
}

/** The account's value for people to read: references by logical id, secrets never. */
export function displayer(logicalIdOf: (kind: string, id: string | number) => string | undefined) {
  const display = (value: PropValue | undefined): unknown => {
    if (value === undefined) return undefined;
    if (isRefValue(value))
      return `${value.kind}:${logicalIdOf(value.kind, value.physicalId) ?? value.physicalId}`;
    if (isSecretValue(value)) return '(secret)';
    if (Array.isArray(value)) return value.map(display);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, display(v)]));
    return value;
  };
  return display;
}

/** Where a construct is made, as text: constructs made at the same place share their props. */
const placeOf = (r: { location?: { file: string; line: number; column: number } | undefined }) =>
  r.location === undefined ? '' : `${r.location.file}:${r.location.line}:${r.location.column}`;

/** The context of the rewriting of `project`'s files, whose text `read` gives. */
export function rewriteContext(
  project: { files: readonly string[]; resources: readonly DesiredResource[] },
  state: Pick<State, 'resources'>,
  read: (file: string) => string,
): RewriteContext {
  const logicalIds = ByPhysicalId.of(Object.values(state.resources), (e) => [e.kind, e.physicalId]);
  const logicalIdOf = (kind: string, id: string | number) =>
    logicalIds.tryFind(kind as ResourceKind, id)?.logicalId;
  const variables = variablesByLogicalId(project.files, read);
  const made = new Map<string, number>();
  for (const d of project.resources) made.set(placeOf(d), (made.get(placeOf(d)) ?? 0) + 1);
  return {
    variableOf: (finder, kind, id) => {
      const logicalId = logicalIdOf(kind, id);
      if (logicalId === undefined) return undefined;
      const visible = [...(variables.get(logicalId) ?? [])].filter((n) => finder.names.has(n));
      return visible.length === 1 ? visible[0] : undefined;
    },
    display: displayer(logicalIdOf),
    shared: (r) => (made.get(placeOf(r)) ?? 0) > 1,
  };
}
