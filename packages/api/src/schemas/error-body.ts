import { z } from '../zod.js';

/**
 * An error body: shape A `{statusCode, error, message}` or shape B `{message, attributes}`.
 * The service may add `attributes` and `validation` to shape A.
 */
export const errorBodySchema = z.looseObject({
  statusCode: z.number().optional(),
  error: z.string().optional(),
  message: z.string().optional(),
  attributes: z.record(z.string(), z.unknown()).optional(),
  validation: z
    .looseObject({ source: z.string().optional(), keys: z.array(z.string()).optional() })
    .optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
