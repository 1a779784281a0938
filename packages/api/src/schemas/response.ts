import { lenient } from '../lenient.js';
import { z } from '../zod.js';

type Shape = Record<string, z.ZodType>;

/** What a response may hold where a request sends a `T`: the same shape, enums and literals widened to their type. */
export type Read<T> = T extends string
  ? string
  : T extends number
    ? number
    : T extends boolean | null | undefined
      ? T
      : T extends readonly (infer E)[]
        ? Read<E>[]
        : T extends object
          ? { [K in keyof T]: Read<T[K]> } & { [key: string]: unknown }
          : T;

type Answered<F extends Shape> = { [K in keyof F]?: z.ZodType };

/** A field as a response holds it: read as `lenient` reads it. */
type ReadField<S extends z.ZodType> = z.ZodType<Read<z.output<S>>>;

type ResponseShape<F extends Shape, S extends Shape, R extends keyof F, A extends Answered<F>> = S & {
  [K in Exclude<keyof F, R | keyof A>]: z.ZodOptional<ReadField<F[K]>>;
} & { [K in Exclude<R, keyof A>]: ReadField<F[K]> } & { [K in keyof A]: NonNullable<A[K]> };

export interface ResponseOptions<F extends Shape, S extends Shape, R extends keyof F, A extends Answered<F>> {
  /**
   * Fields a response declares as they are sent: those only the service sets (ids, timestamps), and
   * those whose request shape is not one (an alert channel's config, one shape per type).
   */
  server: S;
  /** Fields every response has; the others may be left out. @default [] */
  required?: readonly R[];
  /** Fields the service answers in another shape than requests send them (a header that may be null). */
  answered?: A;
}

/**
 * A kind's response schema from the fields its requests take, so that a field is declared once:
 * each field read tolerantly (`lenient`: its type, without format, range or enum rules), optional
 * unless `required`, in a loose object (the service may add fields) with the `server` fields.
 */
export function responseSchema<
  F extends Shape,
  S extends Shape,
  R extends keyof F = never,
  A extends Answered<F> = Record<never, z.ZodType>,
>(fields: F, options: ResponseOptions<F, S, R, A>): z.ZodObject<ResponseShape<F, S, R, A>, z.core.$loose> {
  const required = new Set<keyof F>(options.required ?? []);
  const answered: Answered<F> = options.answered ?? {};
  const shape: Shape = { ...options.server };
  for (const [key, field] of Object.entries(fields)) {
    const read = answered[key] ?? lenient(field);
    shape[key] = answered[key] !== undefined || required.has(key) ? read : read.optional();
  }
  return z.looseObject(shape) as unknown as z.ZodObject<ResponseShape<F, S, R, A>, z.core.$loose>;
}
