import { createRequire } from 'node:module';
import type { Dispatcher } from 'undici';
import { type Clock, systemClock } from './clock.js';
import type { Endpoint } from './endpoints.js';
import {
  AmbiguousWriteError,
  ContractError,
  errorForStatus,
  NetworkError,
  RateLimitedError,
  TimeoutError,
  ValidationError,
  type ValidationIssue,
} from './errors.js';
import { formatIssuePath } from './issue-path.js';
import { kindOfEndpoint } from './kinds/index.js';
import { isRecord } from './kinds/secrets.js';
import { lenient, readsAsSent } from './lenient.js';
import { encodeQuery, fillPath } from './query.js';
import { RateLimiter, WAIT_NOTICE_MS, type WaitNotice } from './rate-limiter.js';
import { type RateLimit, type RouteRateLimit, rateLimitBucketFor } from './rate-limits.js';
import { messageRedactor, Redactor } from './redact.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, retryDelay } from './retry-policy.js';
import { errorBodySchema } from './schemas/error-body.js';
import type { z } from './zod.js';

// By package name: the same from dist/ and from inside a bundle that includes this module.
const packageJson = createRequire(import.meta.url)('@monitor/api/package.json') as { version: string };
export const CLIENT_VERSION: string = packageJson.version;

export interface Timeouts {
  /** Establishing the TCP/TLS connection. @default 10_000 */
  connectMs?: number;
  /** Waiting for the response headers. @default 30_000 */
  headersMs?: number;
  /** Gap between chunks of the response body. @default 30_000 */
  bodyMs?: number;
}

export interface RetryOptions {
  /**
   * Attempts in all: of a GET on network errors and 500/502/503/504, of a PUT or DELETE on network
   * errors and 502/503/504 (a POST, and a write answered 500, are never sent again). @default 4
   */
  attempts?: number;
  /** @default 250 */
  baseDelayMs?: number;
  /** @default 8_000 */
  maxDelayMs?: number;
  /** How many 429s in a row a call waits out before it gives up. @default 6 */
  rateLimitRetries?: number;
}

/**
 * undici's Agent and `request`, loaded on the first call: a command that never calls the API
 * (validate, --help) does not pay for compiling them.
 */
let undici: Promise<typeof import('./undici.js')> | undefined;

/** A debug event: redacted, never a header or a body. */
export interface RequestEvent {
  method: string;
  /** Path with query string, secrets redacted. */
  path: string;
  operation: string;
  attempt: number;
}
export interface ResponseEvent extends RequestEvent {
  /** HTTP status; undefined when no response arrived. */
  status: number | undefined;
  durationMs: number;
  /** The error code when the attempt failed without a response. */
  errorCode?: string | undefined;
}

export interface TransportOptions {
  baseUrl: string;
  /** Sent as `Authorization: Bearer`; omitted for the agent's health endpoints. */
  apiKey?: string | undefined;
  accountId?: string | undefined;
  timeouts?: Timeouts;
  retry?: RetryOptions;
  /** The default bucket's limit (600 / 60 s); `false` turns client-side limiting off. */
  rateLimit?: RateLimit | false;
  /** Per-route limits of the addendum; `false` turns them off. */
  routeRateLimits?: readonly RouteRateLimit[] | false;
  /** Validate request bodies, queries and path params with the request schemas before sending. @default true */
  validateRequests?: boolean;
  /** An undici dispatcher to send through (tests: MockAgent). By default a keep-alive Agent owned by the client. */
  dispatcher?: Dispatcher;
  userAgent?: string;
  onRequest?: (event: RequestEvent) => void;
  onResponse?: (event: ResponseEvent) => void;
  /** Told of every wait of 2 s or more (rate limit, Retry-After, backoff), before it starts. */
  onWait?: (wait: WaitNotice) => void;
  clock?: Clock;
  random?: () => number;
  /**
   * Response bodies that passed their schema before (`KnownResponses`): one that comes back the
   * same is used without the check, which is most of reading a large account.
   */
  knownResponses?: KnownResponses | undefined;
}

/**
 * Response bodies known to pass their endpoint's schema, kept between runs by the caller. Only the
 * pages of lists whose schema hands them back as they came are looked up (`readsAsSent`), so a
 * body read from it is what the check would have returned.
 */
export interface KnownResponses {
  /** The key of `text` as a response of `endpoint` (`GET /v1/checks`); undefined when it cannot be kept. */
  keyOf(endpoint: string, text: string): string | undefined;
  has(key: string): boolean;
  add(key: string): void;
}

export interface CallInput {
  params?: Record<string, unknown> | undefined;
  query?: Record<string, unknown> | undefined;
  body?: unknown;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | undefined>;
  /** Parsed JSON, or undefined for an empty body. */
  data: unknown;
}

/** Errors of the connect phase: the request provably never reached the server. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);
/** Gateway and availability errors: the server may not have seen the request. */
const RETRYABLE_STATUSES = new Set([502, 503, 504]);
/** A read is retried on these too: a plain 500 of a list or a get is usually passing. */
const READ_RETRYABLE_STATUSES = new Set([500, 502, 503, 504]);

/**
 * Sends one endpoint call: validation, rate limiting, retries, error mapping and response
 * parsing. The only place that talks to the network.
 */
export class Transport {
  readonly #origin: string;
  readonly #prefix: string;
  readonly #headers: Record<string, string>;
  /** The caller's dispatcher, or the client's own Agent once the first call has made it. */
  #dispatcher: Dispatcher | undefined;
  readonly #ownsDispatcher: boolean;
  readonly #timeouts: Required<Timeouts>;
  readonly #retry: Required<RetryOptions>;
  readonly #validate: boolean;
  readonly #limiter: RateLimiter;
  readonly #redactor = new Redactor();
  readonly #clock: Clock;
  readonly #random: () => number;
  readonly #onRequest: TransportOptions['onRequest'];
  readonly #onResponse: TransportOptions['onResponse'];
  readonly #onWait: TransportOptions['onWait'];
  readonly #knownResponses: KnownResponses | undefined;
  /** Requests sent, retries included. */
  requestCount = 0;

  constructor(options: TransportOptions) {
    const url = new URL(options.baseUrl);
    this.#origin = url.origin;
    this.#prefix = url.pathname.replace(/\/+$/, '');
    this.#timeouts = { connectMs: 10_000, headersMs: 30_000, bodyMs: 30_000, ...options.timeouts };
    this.#retry = { ...DEFAULT_RETRY_POLICY, rateLimitRetries: 6, ...options.retry };
    this.#validate = options.validateRequests ?? true;
    this.#clock = options.clock ?? systemClock;
    this.#random = options.random ?? Math.random;
    this.#limiter = new RateLimiter({
      default: options.rateLimit,
      routes: options.routeRateLimits,
      clock: this.#clock,
      onWait: options.onWait,
    });
    this.#onWait = options.onWait;
    this.#onRequest = options.onRequest;
    this.#onResponse = options.onResponse;
    this.#knownResponses = options.knownResponses;
    this.#headers = {
      accept: 'application/json',
      'user-agent': options.userAgent ?? `monitor/${CLIENT_VERSION}`,
    };
    if (options.apiKey !== undefined) {
      this.#headers.authorization = `Bearer ${options.apiKey}`;
      this.#redactor.add(options.apiKey);
    }
    if (options.accountId !== undefined) this.#headers['x-monitor-account'] = options.accountId;
    this.#ownsDispatcher = options.dispatcher === undefined;
    this.#dispatcher = options.dispatcher;
  }

  /** Send one request through the caller's dispatcher, or the client's own keep-alive Agent. */
  async #request(options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
    undici ??= import('./undici.js');
    const { Agent, request } = await undici;
    this.#dispatcher ??= new Agent({
      connect: { timeout: this.#timeouts.connectMs },
      headersTimeout: this.#timeouts.headersMs,
      bodyTimeout: this.#timeouts.bodyMs,
      keepAliveTimeout: 10_000,
    });
    return request.call(this.#dispatcher, options);
  }

  /** Remove known secrets from a text. */
  redact(text: string): string {
    return this.#redactor.redact(text);
  }

  #closed = false;

  /** Close the connections once the requests in flight have their answers. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#ownsDispatcher) await this.#dispatcher?.close();
  }

  /** Close the connections now: requests in flight fail (for Ctrl-C during a long poll). */
  async destroy(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#ownsDispatcher) await this.#dispatcher?.destroy();
  }

  /**
   * A 404 from a route with no id in its path cannot mean "deleted": the route itself is missing,
   * so the base URL is not the service's API (or the agent's, for its endpoints).
   */
  #noSuchRouteHint(endpoint: Endpoint): string {
    const base = `${this.#origin}${this.#prefix}`;
    return endpoint.agent === true
      ? `${base} has no ${endpoint.path}: it is probably not a private-location agent; check the agent's health address (--url)`
      : `${base} has no ${endpoint.path}: the base URL is probably wrong (it should be the service's API root); check MONITOR_BASE_URL or the config's api.baseUrl, and see which one is used with monitor whoami`;
  }

  /** Call an endpoint and return its parsed body; any status outside `endpoint.success` throws. */
  async call(endpoint: Endpoint, input: CallInput = {}): Promise<unknown> {
    const raw = await this.send(endpoint, input);
    return raw.data;
  }

  /** Call an endpoint; statuses in `accept` come back as they are instead of throwing. */
  async send(
    endpoint: Endpoint,
    input: CallInput = {},
    accept: readonly number[] = [],
  ): Promise<RawResponse> {
    const { method } = endpoint;
    const label = `${method} ${endpoint.path}`;
    this.#redactor.collectFrom(input.body, kindOfEndpoint(endpoint));
    if (this.#validate) this.#validateInput(endpoint, input, label);
    const path = fillPath(endpoint.path, input.params);
    const fullPath = `${this.#prefix}${path}${encodeQuery(input.query, endpoint.commaSeparated)}`;
    const safePath = this.redact(fullPath);
    const bucket = rateLimitBucketFor(method, path, this.#limiter.routes);
    const body = input.body === undefined ? undefined : JSON.stringify(input.body);
    const headers =
      body === undefined ? this.#headers : { ...this.#headers, 'content-type': 'application/json' };
    const details = { method, path: this.redact(path) };

    let failures = 0;
    let rateLimited = 0;
    for (let attempt = 1; ; attempt++) {
      await this.#limiter.acquire(bucket);
      const event = { method, path: safePath, operation: endpoint.operation, attempt };
      this.#onRequest?.(event);
      const started = this.#clock.now();
      this.requestCount++;
      let status: number;
      let responseHeaders: Record<string, string | undefined>;
      let text: string;
      try {
        const res = await this.#request({
          origin: this.#origin,
          path: fullPath,
          method,
          headers,
          body,
          headersTimeout: this.#timeouts.headersMs,
          bodyTimeout: this.#timeouts.bodyMs,
        });
        status = res.statusCode;
        responseHeaders = flattenHeaders(res.headers);
        text = await readBody(res.body, status);
      } catch (cause) {
        const error = this.#networkError(cause, label, details);
        this.#onResponse?.({
          ...event,
          status: undefined,
          durationMs: this.#clock.now() - started,
          errorCode: error.code,
        });
        const notSent =
          error instanceof NetworkError ? !error.reachedServer : (error as TimeoutError).phase === 'connect';
        if (method === 'POST' && !notSent) {
          throw new AmbiguousWriteError(
            `${label}: the connection failed after the request was sent (${error.message}); the write may or may not have happened`,
            {
              ...details,
              cause: error,
              hint: 'read the resource back before retrying, so that it is not created twice',
            },
          );
        }
        failures++;
        // A client that was closed or destroyed sends nothing more.
        if (failures >= this.#retry.attempts || this.#closed) throw error;
        await this.#wait(this.#backoff(failures), `${label} failed (${error.code}); trying again`);
        continue;
      }
      this.#onResponse?.({ ...event, status, durationMs: this.#clock.now() - started });

      if (endpoint.success.includes(status)) {
        return {
          status,
          headers: responseHeaders,
          data: this.#parseSuccess(endpoint, status, text, responseHeaders, label),
        };
      }
      const errorBody = decodeErrorBody(text);
      // A status the caller expects (a 408 of the completion long poll, a 503 of readiness) is an answer, not an error.
      if (accept.includes(status)) return { status, headers: responseHeaders, data: errorBody };
      // A body that is not JSON is cut, after redaction: a secret cut in two would be missed.
      const serverMessage =
        errorBody.message === undefined
          ? undefined
          : this.redact(errorBody.message).slice(0, errorBody.notJson ? 200 : undefined);
      if (status === 429) {
        const retryAfterMs = parseRetryAfter(responseHeaders['retry-after'], this.#clock.now());
        rateLimited++;
        const wait =
          (retryAfterMs ?? this.#backoff(rateLimited)) +
          this.#random() * Math.max(100, (retryAfterMs ?? 0) * 0.2);
        this.#limiter.pause(
          bucket,
          this.#clock.now() + wait,
          retryAfterMs === undefined
            ? `${label} was rate limited (429)`
            : `${label} was rate limited (429, Retry-After ${Math.round(retryAfterMs / 1000)} s)`,
        );
        if (rateLimited <= this.#retry.rateLimitRetries) continue;
        throw new RateLimitedError(
          `${label} was rate limited ${rateLimited} times in a row (429${serverMessage ? `: ${serverMessage}` : ''})`,
          {
            ...details,
            status,
            serverMessage,
            retryAfterMs,
            hint: 'the account is rate limited: lower --parallelism or the client rate limit, or try again later',
          },
        );
      }
      const statusError = errorForStatus(
        status,
        `${label} failed: ${status} ${errorBody.reason ?? ''}${serverMessage ? `: ${serverMessage}` : ''}`
          .replace(/ +:/, ':')
          .trim(),
        {
          ...details,
          status,
          serverMessage,
          issues: errorBody.keys?.map((key) => ({ path: key, message: serverMessage ?? 'invalid' })),
          ...(status === 404 && routeIsFixed(endpoint) ? { hint: this.#noSuchRouteHint(endpoint) } : {}),
        },
      );
      if (status >= 500) {
        // A read is safe to repeat. A write the server failed on may or may not have happened: a
        // create is never sent again blindly, and neither is any write answered with a plain 500;
        // a gateway's 502/503/504 to an idempotent PUT or DELETE is.
        const read = method === 'GET';
        const idempotentRetry = (method === 'PUT' || method === 'DELETE') && RETRYABLE_STATUSES.has(status);
        if (!read && !idempotentRetry) {
          throw new AmbiguousWriteError(
            `${label}: the server answered ${status} after the request was sent; the write may or may not have happened`,
            {
              ...details,
              status,
              serverMessage,
              cause: statusError,
              hint:
                method === 'POST'
                  ? 'read the resource back before retrying, so that it is not created twice'
                  : 'read the resource back to see whether the change was made before sending it again',
            },
          );
        }
        if (read ? READ_RETRYABLE_STATUSES.has(status) : true) {
          failures++;
          if (failures < this.#retry.attempts) {
            await this.#wait(this.#backoff(failures), `${label} answered ${status}; trying again`);
            continue;
          }
        }
      }
      throw statusError;
    }
  }

  #validateInput(endpoint: Endpoint, input: CallInput, label: string): void {
    const issues: ValidationIssue[] = [];
    const check = (where: 'params' | 'query' | 'body', schema: z.ZodType | undefined, value: unknown) => {
      if (schema === undefined) {
        if (where === 'body' && value !== undefined)
          issues.push({ path: 'body', message: 'this operation takes no body' });
        return;
      }
      const result = schema.safeParse(where === 'body' ? value : (value ?? {}));
      if (!result.success) {
        for (const issue of result.error.issues)
          issues.push({ path: formatIssuePath(issue.path, where), message: issue.message });
      }
    };
    check('params', endpoint.params, input.params);
    check('query', endpoint.query, input.query);
    check('body', endpoint.body, input.body);
    if (issues.length > 0) {
      const kind = kindOfEndpoint(endpoint);
      const described =
        kind !== undefined && isRecord(input.body) ? messageRedactor(kind, input.body) : (t: string) => t;
      const safe = (text: string) => this.redact(described(text));
      const list = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
      throw new ValidationError(safe(`${label}: invalid request: ${list}`), {
        method: endpoint.method,
        path: endpoint.path,
        issues: issues.map((i) => ({ path: i.path, message: safe(i.message) })),
        hint: 'fix the fields named above; the request was not sent',
      });
    }
  }

  #parseSuccess(
    endpoint: Endpoint,
    status: number,
    text: string,
    headers: Record<string, string | undefined>,
    label: string,
  ): unknown {
    if (endpoint.response === null || text.length === 0) return undefined;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      const contentType = headers['content-type'] ?? 'none';
      throw new ContractError(
        `${label} returned ${status} with a body that is not JSON (content-type ${contentType}): ${this.redact(text).slice(0, 120)}`,
        {
          method: endpoint.method,
          path: endpoint.path,
          status,
          hint: 'check MONITOR_BASE_URL: it must point at the service API',
        },
      );
    }
    this.#redactor.collectFrom(json, kindOfEndpoint(endpoint));
    const schema = lenient(endpoint.response);
    // A schema that hands bodies back as they came: the parsed JSON is the result, checked or
    // known from an earlier run to pass (the same either way, key order included). Only the pages
    // of lists are looked up: what a run reads again unchanged (a write's answer is new each time).
    // (A body with a `__proto__` key is read through the check, which drops it.)
    const asSent = readsAsSent(schema) && !text.includes('"__proto__"');
    const key =
      asSent && endpoint.pagination !== undefined
        ? this.#knownResponses?.keyOf(`${endpoint.method} ${endpoint.path}`, text)
        : undefined;
    if (key !== undefined && this.#knownResponses?.has(key) === true) return json;
    const result = schema.safeParse(json);
    if (!result.success) {
      const issues = result.error.issues.map((i) => ({
        path: formatIssuePath(i.path) || '(root)',
        message: i.message,
      }));
      const list = issues
        .slice(0, 5)
        .map((i) => `${i.path}: ${i.message}`)
        .join('; ');
      throw new ContractError(`${label} returned a body that breaks the API contract: ${list}`, {
        method: endpoint.method,
        path: endpoint.path,
        status,
        issues,
        hint: 'the service and this client disagree on the response shape; upgrade monitor or report it',
      });
    }
    if (key !== undefined) this.#knownResponses?.add(key);
    return asSent ? json : result.data;
  }

  #networkError(
    cause: unknown,
    label: string,
    details: { method: string; path: string },
  ): NetworkError | TimeoutError {
    const code = errorCode(cause);
    const reason = this.redact(cause instanceof Error ? cause.message : String(cause));
    if (code === 'UND_ERR_CONNECT_TIMEOUT') {
      return new TimeoutError(`${label}: connecting timed out after ${this.#timeouts.connectMs} ms`, {
        ...details,
        phase: 'connect',
        cause,
        hint: 'check MONITOR_BASE_URL and the network, or raise the connect timeout',
      });
    }
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
      const phase = code === 'UND_ERR_HEADERS_TIMEOUT' ? 'headers' : 'body';
      const ms = phase === 'headers' ? this.#timeouts.headersMs : this.#timeouts.bodyMs;
      return new TimeoutError(`${label}: no response ${phase} within ${ms} ms`, {
        ...details,
        phase,
        cause,
        hint: 'the service is slow to answer; try again or raise the timeout',
      });
    }
    const notSent = code !== undefined && NOT_SENT_CODES.has(code);
    return new NetworkError(`${label}: ${code ?? 'network error'}: ${reason}`, {
      ...details,
      reachedServer: !notSent,
      cause,
      hint: notSent ? 'check MONITOR_BASE_URL: nothing answered there' : 'the connection broke; try again',
    });
  }

  /** Sleep, telling `onWait` first when the wait is long enough to notice. */
  async #wait(ms: number, reason: string): Promise<void> {
    if (ms >= WAIT_NOTICE_MS) this.#onWait?.({ ms, reason });
    await this.#clock.sleep(ms);
  }

  #backoff(failures: number): number {
    return retryDelay(this.#retry, failures, this.#random);
  }

  /** The retry policy of this client's requests, for callers that retry on their own (the deployer). */
  get retryPolicy(): RetryPolicy {
    const { attempts, baseDelayMs, maxDelayMs } = this.#retry;
    return { attempts, baseDelayMs, maxDelayMs };
  }
}

function errorCode(cause: unknown): string | undefined {
  let current: unknown = cause;
  for (let depth = 0; depth < 4 && current !== null && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function flattenHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(headers))
    out[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/** Decode an error body of either shape; tolerate non-JSON. */
function decodeErrorBody(text: string): {
  message?: string;
  reason?: string;
  keys?: string[];
  notJson?: boolean;
} {
  if (text.length === 0) return {};
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(text));
    if (!parsed.success) return {};
    const body = parsed.data;
    return {
      message: body.message ?? body.error,
      reason: body.error,
      keys: body.validation?.keys,
    };
  } catch {
    return { message: text, notJson: true };
  }
}

/** `Retry-After` as seconds or an HTTP date, in ms from now. */
export function parseRetryAfter(header: string | undefined, now: number): number | undefined {
  if (header === undefined) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Statuses that never have a body, whatever `Content-Length` says (RFC 9110 §6.4.1). */
const BODILESS_STATUSES = new Set([204, 205, 304]);

/**
 * The response body as text. A bodiless status with a stray `Content-Length` is an empty answer,
 * not a broken connection (undici reports the missing bytes as a length mismatch).
 */
async function readBody(body: { text(): Promise<string> }, status: number): Promise<string> {
  try {
    return await body.text();
  } catch (error) {
    if (
      BODILESS_STATUSES.has(status) &&
      (error as { code?: unknown }).code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH'
    )
      return '';
    throw error;
  }
}

/** Whether the route always exists: no id in its path, and no 404 for a resource it refers to. */
function routeIsFixed(endpoint: Endpoint): boolean {
  return !endpoint.path.includes('{') && !(endpoint.errors ?? []).includes(404);
}
