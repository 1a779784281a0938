import { KINDS, RESOURCE_KINDS } from '@monitor/api';
import type { DesiredResource, Diagnostic } from '@monitor/constructs';
import * as constructs from '@monitor/constructs';
import { ByPhysicalId } from '../identity.js';
import { type Change, diffPayload } from '../plan/diff.js';
import { type LiveResource, resolveRefs } from '../plan/plan.js';
import { stateKey } from '../state/state.js';
import type { ImportedResource } from './imported.js';
import type { Chosen } from './select.js';
import { isRefValue, isSecretValue, type Props, type PropValue } from './values.js';

/**
 * Stands in for a secret the service masks and the environment does not give: unlike the masked
 * `""`, it differs from the account, so the next diff is predicted to send it. Never hashed.
 */
export const UNKNOWN_SECRET = '\ufdd0monitor:unknown-secret';

/** An imported resource's construct as the generated code makes it, synthesized. */
export interface SynthesizedImport {
  res: ImportedResource;
  desired: DesiredResource;
  /** The live resource it was made from. */
  live: LiveResource;
}

/**
 * The generated constructs made in memory as the generated code makes them, and synthesized,
 * referred-to kinds first. Each one's props lose every field whose absence still gives the live
 * resource (what synthesis fills in, or the config's `defaults`): `res.props` is set to what is
 * left. `ids`: the physical id of every logical id the generated code and the code refer to.
 */
export function synthesizeImported(
  resources: readonly ImportedResource[],
  chosen: readonly Chosen[],
  context: {
    ids: ReadonlyMap<string, string | number>;
    defaults: Readonly<Record<string, Readonly<Record<string, unknown>>>> | undefined;
    env: Readonly<Record<string, string | undefined>>;
  },
): { synthesized: SynthesizedImport[]; diagnostics: Diagnostic[] } {
  const { ids, defaults, env } = context;
  const byLive = ByPhysicalId.of(resources, (res) => [res.kind, res.physicalId]);
  const liveById = ByPhysicalId.of(chosen, ({ kind, r }) => [kind, r.id]);
  const liveOf = (res: ImportedResource) => liveById.find(res.kind, res.physicalId).r;
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
    } = constructs.synth({ defaults: defaults as constructs.SynthOptions['defaults'], validate }, session);
    return { instance, desired: desired as DesiredResource, diagnostics };
  };
  // A trial is compared, never sent: the schema checks the final props, once (below).
  const matches = (res: ImportedResource, props: Props, expected: DesiredResource) => {
    const { desired, diagnostics } = synthOne(res, props, false);
    if (diagnostics.some((d) => d.severity === 'error')) return false;
    if (!keepsShape(expected.payload, desired.payload)) return false;
    const changes: Change[] = [];
    diffPayload(
      resolveRefs(desired.payload, ids) as Record<string, unknown>,
      liveOf(res),
      { kind: KINDS[res.kind], secretUnchanged: () => true },
      changes,
    );
    return changes.length === 0;
  };

  const synthesized: SynthesizedImport[] = [];
  const diagnostics: Diagnostic[] = [];
  const byReferenceOrder = [...resources].sort(
    (a, b) => RESOURCE_KINDS.indexOf(a.kind) - RESOURCE_KINDS.indexOf(b.kind),
  );
  for (const res of byReferenceOrder) {
    const full = synthOne(res, res.props);
    res.props = minimize(res.props, (candidate) => matches(res, candidate, full.desired));
    const final = synthOne(res, res.props);
    diagnostics.push(...final.diagnostics);
    instances.set(stateKey(res.kind, res.logicalId), final.instance);
    synthesized.push({ res, desired: final.desired, live: liveOf(res) });
  }
  return { synthesized, diagnostics };
}

type ConstructClass = new (logicalId: string, props: object) => constructs.Construct<object>;
type RemoteFactory = { fromId(id: string | number): unknown };

/** The construct class of `@monitor/constructs` by its name (`SlackAlertChannel`, or a kind's `AlertChannel`). */
export function constructClass(name: string): ConstructClass & Partial<RemoteFactory> {
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
