import { fieldsOf, KINDS, type ResourceKind } from '@monitor/api/definitions';

/**
 * The way back from the account to code (`monitor import`, `monitor pull`): each construct module
 * says, beside its synthesis, how a live resource of its kind is written as that construct. A
 * field a kind's requests take is a prop of the same name unless the construct says otherwise, so
 * a new field needs nothing here.
 */

type Live = Record<string, unknown>;

/**
 * A reference in props read back from the account: written as the variable of the resource it
 * names when that is written too, else as `Kind.fromId(id)`.
 */
export interface SourceRef {
  readonly $import: 'ref';
  readonly kind: ResourceKind;
  readonly physicalId: string | number;
}

export function sourceRef(kind: ResourceKind, physicalId: unknown): SourceRef {
  return { $import: 'ref', kind, physicalId: physicalId as string | number };
}

export function isSourceRef(value: unknown): value is SourceRef {
  return typeof value === 'object' && value !== null && (value as { $import?: unknown }).$import === 'ref';
}

/** How one live resource is written as code: `new <construct>(logicalId, props)`. */
export interface ConstructSource {
  /** The construct class, e.g. `SlackAlertChannel`. */
  construct: string;
  /** Props for every field the resource has: references as `SourceRef`s, other values as the account holds them. */
  props: Record<string, unknown>;
  /** What its variable's name adds to the resource's name, to tell constructs of one kind apart (an alert channel's type). */
  qualifier?: string;
}

/** How the resources of one kind are written as code: the inverse of its constructs' synthesis. */
export interface KindSource {
  /** The module its constructs go in when code is written one module per kind: `check-groups`. */
  readonly module: string;
  /** The construct of a live resource, and its props. */
  source(live: Live): ConstructSource;
  /**
   * Props whose strings may name a resource of another kind, which the construct also takes as
   * that construct (a window's `tags` take check groups, by name): written as it when it is imported too.
   */
  readonly namedBy?: readonly { prop: string; kind: ResourceKind }[];
  /**
   * Where a field of the payload, by the path a diff names it with, is written in the props
   * (`monitor pull`). Without it, a field is the prop of its name and `path` the same path.
   */
  propOf?(path: string): PropTarget | undefined;
}

/**
 * The prop that holds a payload field, and the path of the field under the props when the prop
 * mirrors it (a value there can be edited alone); without `path` the whole prop is written again.
 * `undefined` from `propOf`: no prop holds it (an alert channel's type is its construct).
 */
export interface PropTarget {
  prop: string;
  path?: string;
}

/** The first field of a path a diff prints: `alertSettings` of `alertSettings.reminders.amount`. */
export function topField(path: string): string {
  const end = path.search(/[.[]/);
  return end === -1 ? path : path.slice(0, end);
}

/** `propOf` of a kind: its own, or the field's prop of the same name. */
export function propOf(source: KindSource, path: string): PropTarget | undefined {
  return source.propOf === undefined ? { prop: topField(path), path } : source.propOf(path);
}

/**
 * The fields of `live` (or of its object at `path`) that `kind`'s requests take, in the order the
 * kind declares them: what a construct of the kind takes as props of the same name.
 */
export function requestFields(live: Live, kind: ResourceKind, path = ''): Live {
  const out: Live = {};
  for (const field of fieldsOf(KINDS[kind].createSchema, path)) {
    if (live[field] !== undefined) out[field] = live[field];
  }
  return out;
}

/** `props` with `field` replaced where it stands by `replacement` (renamed props, references). */
export function replaceProp(props: Live, field: string, replacement: Live): Live {
  if (!(field in props)) return { ...props, ...replacement };
  const out: Live = {};
  for (const [key, value] of Object.entries(props)) {
    if (key === field) Object.assign(out, replacement);
    else out[key] = value;
  }
  return out;
}

/** A list field of a live resource, `[]` when it is absent. */
export const listOf = <T = Live>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);
