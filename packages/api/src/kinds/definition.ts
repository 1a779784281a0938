import type { EndpointName } from '../endpoints.js';
import type { z } from '../zod.js';

/** The kinds of service resource that monitor manages. Logical ids are unique per kind. */
export type ResourceKind =
  | 'CheckGroup'
  | 'Dashboard'
  | 'StatusPage'
  | 'StatusPageService'
  | 'MaintenanceWindow'
  | 'AlertChannel';

type Payload = Record<string, unknown>;

/**
 * A field whose value is a credential: never printed, logged, saved in a plan or stored in state.
 * `path` names it in a payload, with `[]` for every item of a list (`config.headers[].value`).
 * `when` narrows it: the object that holds the field and the whole payload decide, e.g. only env
 * vars with `secret: true`, only the `url` of a SLACK channel.
 */
export interface SensitivePath {
  readonly path: string;
  readonly when?: (holder: Payload, payload: Payload) => boolean;
}

/** A value shown once: where it is, and the field beside it that holds its masked form. */
export interface OneTimeField {
  /** Its path in a response, with `[]` for list items: `keys[].rawKey`. */
  readonly path: string;
  /** A field of the same object that the value equals once it is masked: then it is not shown again. */
  readonly maskedAs?: string;
}

/** A field that holds the physical id of another managed kind. */
export interface Reference {
  readonly path: string;
  readonly kind: ResourceKind;
}

/** How a kind is listed, created, updated and deleted: operations of the endpoint table. */
export interface KindOperations {
  readonly list: EndpointName;
  /** One resource by its physical id (what a write of unknown outcome is read back with). */
  readonly get: EndpointName;
  readonly create: EndpointName;
  readonly update: EndpointName;
  readonly delete: EndpointName;
  /** The path parameter that takes the physical id. */
  readonly idParam: string;
  /** The field of a live resource that is its physical id (what the paths take). @default 'id' */
  readonly idField?: string;
  /** Whether physical ids are integers or strings on the wire. */
  readonly idType: 'int' | 'string';
  /** Query parameters every create sends. */
  readonly createQuery?: Readonly<Record<string, unknown>>;
  /** Query parameters every read of the whole list sends. */
  readonly listQuery?: Readonly<Record<string, unknown>>;
}

/**
 * Everything the code knows about one managed kind, in one place. Constructs, synth, the
 * planner's comparison, reading and applying, state, redaction, the renderers and the emulator
 * all ask this; nothing else keeps a per-kind table.
 */
export interface KindDefinition {
  readonly kind: ResourceKind;
  /** Request body of a create (strict): what a construct synthesizes. */
  readonly createSchema: z.ZodType;
  /** Request body of an update (a partial PUT). */
  readonly updateSchema: z.ZodType;
  /** A live resource as the service returns it (tolerant). */
  readonly responseSchema: z.ZodType;
  /** The documented create defaults, top level: what its create schema declares (`defaultsOf`). */
  readonly defaults: Readonly<Payload>;
  /** What the kind is called in a sentence: `check group`, `status page service`. */
  readonly noun: string;
  /** What people call a resource (its name, header or address), shown beside its logical id. */
  readonly displayName: (payload: Payload) => string | undefined;
  /**
   * Finds an existing resource for a construct that has no state yet: the first of `fields` that is
   * set (compared lower-cased when `lowerCase`, as the service stores it). Absent when the kind has none.
   */
  readonly naturalKey?: NaturalKey;
  /** Fields the service keeps unique (409 when taken); null and absent values never clash. */
  readonly uniqueKeys: readonly string[];
  readonly sensitive: readonly SensitivePath[];
  /**
   * Values the service shows whole only in the response of the write that made them (a private
   * dashboard's key): shown to the person once, never logged, printed in JSON or kept in state.
   */
  readonly oneTimeValues?: readonly OneTimeField[];
  /** Lists compared without order; the service may reorder them. Paths use `[]` for list items. */
  readonly sets: readonly string[];
  /** Lists of records matched by a key field, not by position: path → key field. */
  readonly keyed: Readonly<Record<string, string>>;
  /** Date fields, compared as instants. */
  readonly dates: readonly string[];
  readonly references: readonly Reference[];
  readonly operations: KindOperations;
  /**
   * Fields of a live resource that people and other tools need after a deploy, beside its id
   * (what the service made: a dashboard's generated custom URL). `monitor output` prints them.
   */
  readonly outputs?: readonly string[];
  /**
   * Top-level fields whose change can change how the checks run (where, with what settings):
   * `deploy --verify` runs the checks of a resource whose change touched one. Absent: no change of
   * the kind affects a run (a dashboard, a channel's display fields).
   */
  readonly runFields?: readonly string[];
}

export interface NaturalKey {
  readonly fields: readonly string[];
  readonly lowerCase?: boolean;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** A resource's natural key: the field it comes from, its value, and the key to compare. */
export function naturalKeyOf(
  def: KindDefinition,
  resource: Payload,
): { field: string; value: string; key: string } | undefined {
  if (def.naturalKey === undefined) return undefined;
  for (const field of def.naturalKey.fields) {
    const value = str(resource[field]);
    if (value === undefined) continue;
    return {
      field,
      value,
      key: `${field}:${def.naturalKey.lowerCase === true ? value.toLowerCase() : value}`,
    };
  }
  return undefined;
}

/**
 * Every value at a rule path of `value` (`cards[].services[].id`: `[]` for each item of a list),
 * with its concrete path (`cards[0].services[1].id`). Missing fields give `undefined` values.
 */
export function valuesAt(value: unknown, rulePath: string): { path: string; value: unknown }[] {
  let at: { path: string; value: unknown }[] = [{ path: '', value }];
  for (const segment of rulePath.split('.')) {
    const each = segment.endsWith('[]');
    const field = each ? segment.slice(0, -2) : segment;
    const next: { path: string; value: unknown }[] = [];
    for (const { path, value: holder } of at) {
      if (holder === null || typeof holder !== 'object') continue;
      const inner = (holder as Record<string, unknown>)[field];
      const innerPath = path === '' ? field : `${path}.${field}`;
      if (!each) next.push({ path: innerPath, value: inner });
      else if (Array.isArray(inner)) {
        for (const [i, item] of inner.entries()) next.push({ path: `${innerPath}[${i}]`, value: item });
      }
    }
    at = next;
  }
  return at;
}

/** The display name read from one string field. */
export function fieldName(field: string): (payload: Payload) => string | undefined {
  return (payload) => str(payload[field]);
}

export { str as nonEmptyString };
