import { z } from '../zod.js';

/**
 * A field's documented default, declared beside its type in the kind's schema module:
 * `width: withDefault(dashboardWidthSchema, 'FULL')`. Only declared: parsing is unchanged (zod's
 * `.default()` would fill the value in, in partial updates too), and the defaults live in a
 * registry of their own, not zod's global one, so the JSON schemas made from the schemas do not
 * change either. `defaultsOf` (kinds/fields.ts) reads them back as a kind's `*_DEFAULTS`.
 */

declare const DEFAULT: unique symbol;

/** A field schema `S` that declares `D` as its default: the value, as a type, for `defaultsOf`. */
export type Defaulted<S extends z.ZodType, D> = S & { readonly [DEFAULT]: D };

/** The object of its fields' defaults: the default of an object field whose fields each have one. */
export const FIELD_DEFAULTS = Symbol('the defaults of its fields');

/** Each field schema's declared default: a value, or `FIELD_DEFAULTS`. */
export const fieldDefaults = z.registry<{ default: unknown }>();

/** `S`'s own schema under `.optional()` (as `optionalAll` wraps a field). */
type Unwrapped<S> = S extends z.ZodOptional<infer I> ? Unwrapped<I> : S;

/** The fields of the object `S` is: through optional and nullable, the common ones of a union's variants. */
export type FieldsOf<S> = S extends z.ZodOptional<infer I> | z.ZodNullable<infer I>
  ? FieldsOf<I>
  : S extends z.ZodObject<infer Shape>
    ? Shape
    : S extends z.ZodUnion<infer Options> | z.ZodDiscriminatedUnion<infer Options>
      ? Common<FieldsOf<Options[number]>>
      : never;

/** The fields every member of the union `U` has, as one object. */
type Common<U> = Pick<U, keyof U>;

/** The declared defaults of `Fields`, field by field, as `defaultsOf` reads them. */
export type DefaultsOf<Fields> = {
  -readonly [K in keyof Fields as Unwrapped<Fields[K]> extends { readonly [DEFAULT]: unknown }
    ? K
    : never]: Unwrapped<Fields[K]> extends { readonly [DEFAULT]: infer D } ? D : never;
};

/** `schema` with `value` as the field's default. A copy: a shared schema (`dashboardWidthSchema`) stays as it is. */
export function withDefault<S extends z.ZodType, const D extends z.output<S>>(
  schema: S,
  value: D,
): Defaulted<S, D> {
  const field = schema.clone();
  fieldDefaults.add(field, { default: value });
  return field as Defaulted<S, D>;
}

/** `schema`, an object field, whose default is the object of its own fields' defaults. */
export function withFieldDefaults<S extends z.ZodType>(schema: S): Defaulted<S, DefaultsOf<FieldsOf<S>>> {
  const field = schema.clone();
  fieldDefaults.add(field, { default: FIELD_DEFAULTS });
  return field as Defaulted<S, DefaultsOf<FieldsOf<S>>>;
}
