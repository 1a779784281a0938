import { KINDS, RESOURCE_KINDS, type ResourceKind } from '@monitor/api';
import type { DesiredResource } from '@monitor/constructs';
import * as constructs from '@monitor/constructs';
import { displayNameOf } from '../plan/plan.js';
import type { State } from '../state/state.js';
import { camelCase, constantCase, kebabCase, UniqueNames, wordsOf } from './names.js';
import type { Chosen } from './select.js';
import {
  isRefValue,
  isSecretValue,
  markSecrets,
  type Props,
  type PropValue,
  type SecretValue,
} from './values.js';

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

/**
 * What a variable is called when its resource has no usable name, and what precedes a leading
 * digit: the last word of the kind's noun (`group`, `channel`, `service`).
 */
const fallbackWord = (kind: ResourceKind) => KINDS[kind].noun.split(' ').at(-1) as string;

/**
 * Each chosen live resource as a construct of the generated code: its variable (unique across the
 * generated modules) and logical id (unique per kind, beside the code's and the state's), its
 * module, and all its props, with references and secrets as markers; each secret is read from an
 * environment variable of its own. Props are left whole here: synthesis takes out what it fills in.
 */
export function importedResources(
  chosen: readonly Chosen[],
  context: {
    code: readonly DesiredResource[];
    state: State;
    env: Readonly<Record<string, string | undefined>>;
    groupBy: 'kind' | 'tag';
  },
): { resources: ImportedResource[]; secrets: ImportSecret[] } {
  const { code, state, env, groupBy } = context;
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
  const secrets: ImportSecret[] = [];
  const resources: ImportedResource[] = [];
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
      secrets.push({
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
      groupBy === 'tag' && tags.length > 0
        ? kebabCase(wordsOf(tags[0] as string), 'tag')
        : constructs.CONSTRUCT_SOURCES[kind].module;
    resources.push({
      kind,
      construct: source.construct,
      logicalId,
      variable,
      physicalId: r.id,
      ...(name === undefined ? {} : { name }),
      module,
      props,
    });
  }
  // A string that names an imported resource where the construct takes that resource too (a
  // window's tag naming a group) becomes its constant, as a construct library would write it. Not
  // across tag modules: two of them could import each other.
  if (groupBy !== 'tag') refersByName(resources);
  return { resources, secrets };
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
