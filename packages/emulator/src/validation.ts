import { formatIssuePath } from '@monitor/api';
import type { z } from '@monitor/api/zod';
import { badRequest, HttpProblem } from './problem.js';

type Source = 'payload' | 'query' | 'params';

/** One zod issue in the service's words: `"name" is required`, `"limit" must be less than or equal to 100`. */
export function describeIssue(issue: z.core.$ZodIssue, input: unknown): { key: string; message: string } {
  const key = formatIssuePath(issue.path);
  const q = `"${key}"`;
  switch (issue.code) {
    case 'unrecognized_keys': {
      const field = formatIssuePath([...issue.path, issue.keys[0] ?? '']);
      return { key: field, message: `"${field}" is not allowed` };
    }
    case 'invalid_type':
      if (valueAt(input, issue.path) === undefined) return { key, message: `${q} is required` };
      return { key, message: `${q} must be a ${issue.expected === 'int' ? 'integer' : issue.expected}` };
    case 'too_big': {
      const max = String(issue.maximum);
      if (issue.origin === 'array')
        return { key, message: `${q} must contain less than or equal to ${max} items` };
      if (issue.origin === 'string')
        return { key, message: `${q} length must be less than or equal to ${max} characters long` };
      return { key, message: `${q} must be less than or equal to ${max}` };
    }
    case 'too_small': {
      const min = String(issue.minimum);
      if (issue.origin === 'array') return { key, message: `${q} must contain at least ${min} items` };
      if (issue.origin === 'string') {
        return {
          key,
          message:
            min === '1'
              ? `${q} is not allowed to be empty`
              : `${q} length must be at least ${min} characters long`,
        };
      }
      return { key, message: `${q} must be greater than or equal to ${min}` };
    }
    case 'invalid_value':
      return { key, message: `${q} must be one of [${issue.values.map(String).join(', ')}]` };
    case 'invalid_union':
      return { key, message: `${q} does not match any of the allowed types` };
    default:
      return { key, message: `${q} ${issue.message.charAt(0).toLowerCase()}${issue.message.slice(1)}` };
  }
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let node = input;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

/** Parse with `schema` or throw the service's 400, naming the first field at fault and listing all keys. */
export function parseOr400<T>(schema: z.ZodType<T>, input: unknown, source: Source): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const described = result.error.issues.map((i) => describeIssue(i, input));
  const first = described[0];
  if (first === undefined) throw new HttpProblem(400, 'Invalid request');
  throw badRequest(
    first.message,
    source,
    described.map((d) => d.key),
  );
}
