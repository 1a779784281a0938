import { CodedError } from './coded-error.js';
/** Stable codes of every error the client throws. */
export type ApiErrorCode =
  | 'config'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'validation'
  | 'rate_limited'
  | 'payment_required'
  | 'server'
  | 'http'
  | 'network'
  | 'timeout'
  | 'contract'
  | 'response_too_large'
  | 'ambiguous_write';

export interface ApiErrorDetails {
  status?: number | undefined;
  method?: string | undefined;
  /** The request path (template values filled in, no query string). */
  path?: string | undefined;
  /** What the caller can do about it. */
  hint?: string | undefined;
  /** The server's own message, decoded from either error body shape. */
  serverMessage?: string | undefined;
  cause?: unknown;
}

/**
 * Base of every error `@monitor/api` throws. Every field is safe to print: messages and fields
 * never carry the API key or secret values, and the cause is kept out of `JSON.stringify`.
 * Each class fixes its own `code`; `instanceof` works across package copies (`CodedError`).
 */
export class ApiError extends CodedError {
  static override readonly code: ApiErrorCode = 'http';
  override readonly name: string = 'ApiError';
  declare readonly code: ApiErrorCode;
  readonly status: number | undefined;
  readonly method: string | undefined;
  readonly path: string | undefined;
  readonly serverMessage: string | undefined;

  constructor(message: string, details: ApiErrorDetails = {}) {
    super(message, { hint: details.hint, cause: details.cause });
    this.status = details.status;
    this.method = details.method;
    this.path = details.path;
    this.serverMessage = details.serverMessage;
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      status: this.status,
      method: this.method,
      path: this.path,
      hint: this.hint,
      serverMessage: this.serverMessage,
    };
  }
}

/** Credentials or the base URL are missing or malformed; nothing was sent. */
export class ConfigError extends ApiError {
  static override readonly code = 'config';
  override readonly name = 'ConfigError';
  /** The environment variable at fault, when one is (`MONITOR_API_KEY`). */
  readonly variable: string | undefined;
  constructor(message: string, hint: string, variable?: string) {
    super(message, { hint });
    this.variable = variable;
  }
}
export class UnauthorizedError extends ApiError {
  static override readonly code = 'unauthorized';
  override readonly name = 'UnauthorizedError';
}
export class ForbiddenError extends ApiError {
  static override readonly code = 'forbidden';
  override readonly name = 'ForbiddenError';
}
export class NotFoundError extends ApiError {
  static override readonly code = 'not_found';
  override readonly name = 'NotFoundError';
}
export class ConflictError extends ApiError {
  static override readonly code = 'conflict';
  override readonly name = 'ConflictError';
}
export class PaymentRequiredError extends ApiError {
  static override readonly code = 'payment_required';
  override readonly name = 'PaymentRequiredError';
}

/** One problem with a request, as a path into the request and a message. */
export interface ValidationIssue {
  /** Where: `body`, `query` or `params`, then the field path, e.g. `body.locations[2]`. */
  path: string;
  message: string;
}
/** A 400/415 from the server, or a request the client's own schemas rejected before sending it. */
export class ValidationError extends ApiError {
  static override readonly code = 'validation';
  override readonly name = 'ValidationError';
  readonly issues: readonly ValidationIssue[];
  constructor(message: string, details: ApiErrorDetails & { issues?: readonly ValidationIssue[] } = {}) {
    super(message, details);
    this.issues = details.issues ?? [];
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), issues: this.issues };
  }
}
export class RateLimitedError extends ApiError {
  static override readonly code = 'rate_limited';
  override readonly name = 'RateLimitedError';
  readonly retryAfterMs: number | undefined;
  constructor(message: string, details: ApiErrorDetails & { retryAfterMs?: number | undefined } = {}) {
    super(message, details);
    this.retryAfterMs = details.retryAfterMs;
  }
}
export class ServerError extends ApiError {
  static override readonly code = 'server';
  override readonly name = 'ServerError';
}
/** Any other unexpected HTTP status. */
export class HttpError extends ApiError {
  static override readonly code = 'http';
  override readonly name = 'HttpError';
}
/** The connection failed (refused, reset, DNS). `reachedServer` is false when the request provably never left. */
export class NetworkError extends ApiError {
  static override readonly code = 'network';
  override readonly name = 'NetworkError';
  readonly reachedServer: boolean;
  constructor(message: string, details: ApiErrorDetails & { reachedServer: boolean }) {
    super(message, details);
    this.reachedServer = details.reachedServer;
  }
}
export class TimeoutError extends ApiError {
  static override readonly code = 'timeout';
  override readonly name = 'TimeoutError';
  readonly phase: 'connect' | 'headers' | 'body';
  constructor(message: string, details: ApiErrorDetails & { phase: 'connect' | 'headers' | 'body' }) {
    super(message, details);
    this.phase = details.phase;
  }
}
/**
 * An answer larger than the client reads (`maxResponseBytes`): it stopped reading at the cap, or
 * before the body when `Content-Length` said so. Never retried: it would be as large again.
 */
export class ResponseTooLargeError extends ApiError {
  static override readonly code = 'response_too_large';
  override readonly name = 'ResponseTooLargeError';
  /** Bytes the answer declared (`Content-Length`) or had sent when the client stopped reading. */
  readonly bytes: number;
  /** The cap it went past. */
  readonly limit: number;
  constructor(message: string, details: ApiErrorDetails & { bytes: number; limit: number }) {
    super(message, details);
    this.bytes = details.bytes;
    this.limit = details.limit;
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), bytes: this.bytes, limit: this.limit };
  }
}
/** The server answered with a body that breaks the contract (wrong field type, not JSON). */
export class ContractError extends ApiError {
  static override readonly code = 'contract';
  override readonly name = 'ContractError';
  readonly issues: readonly ValidationIssue[];
  constructor(message: string, details: ApiErrorDetails & { issues?: readonly ValidationIssue[] } = {}) {
    super(message, details);
    this.issues = details.issues ?? [];
  }
}
/**
 * A write (POST) whose outcome is unknown: the request may have reached the server and been
 * processed before the connection failed or a 5xx came back. Never retried blindly; callers
 * reconcile by reading the resource back.
 */
export class AmbiguousWriteError extends ApiError {
  static override readonly code = 'ambiguous_write';
  override readonly name = 'AmbiguousWriteError';
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

const HINTS: Record<number, string> = {
  401: 'check MONITOR_API_KEY: it must be a valid, unrevoked API key',
  402: "the account's plan does not include this feature",
  403: 'check MONITOR_ACCOUNT_ID and that the API key has access to that account with a role that allows this call',
  404: 'the resource does not exist in this account (it may have been deleted outside monitor)',
  409: 'another resource already uses this value, or the resource is still in use',
  429: 'the account is rate limited: send fewer requests at once, lower the client rate limit, or try again later',
};

/** The error class and hint for an HTTP status that was not a success. */
export function errorForStatus(
  status: number,
  message: string,
  details: ApiErrorDetails & { issues?: ValidationIssue[]; retryAfterMs?: number },
): ApiError {
  const withHint = { ...details, hint: details.hint ?? HINTS[status] };
  switch (status) {
    case 400:
    case 415:
    case 422:
      return new ValidationError(message, withHint);
    case 401:
      return new UnauthorizedError(message, withHint);
    case 402:
      return new PaymentRequiredError(message, withHint);
    case 403:
      return new ForbiddenError(message, withHint);
    case 404:
      return new NotFoundError(message, withHint);
    case 409:
      return new ConflictError(message, withHint);
    case 429:
      return new RateLimitedError(message, withHint);
    default:
      if (status >= 500) return new ServerError(message, withHint);
      return new HttpError(message, withHint);
  }
}
