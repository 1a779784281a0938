import { STATUS_CODES } from 'node:http';

/** An error answer of the service: shape A, plus `attributes` and `validation` where the addendum says. */
export class HttpProblem extends Error {
  readonly status: number;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    message: string,
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = status;
    this.extra = extra;
    this.headers = headers;
  }
}

export function errorBody(
  status: number,
  message: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    statusCode: status,
    error: STATUS_CODES[status] ?? 'Error',
    message,
    ...extra,
  };
  // 401, 402 and 429 bodies also satisfy shape B.
  if ((status === 401 || status === 402 || status === 429) && body.attributes === undefined)
    body.attributes = {};
  return body;
}

export const notFound = (what: string) => new HttpProblem(404, `${what} not found`);
export const conflict = (message: string) => new HttpProblem(409, message);
export const badRequest = (message: string, source: 'payload' | 'query' | 'params', keys: string[]) =>
  new HttpProblem(400, message, { validation: { source, keys } });
