import { createRequire } from 'node:module';
import type { Dispatcher } from 'undici';
import type { AccountBudget } from './account-budget.js';
import { type Clock, systemClock } from './clock.js';
import type { Endpoint } from './endpoints.js';
import {
  AmbiguousWriteError,
  type ApiError,
  ContractError,
  errorForStatus,
  NetworkError,
  RateLimitedError,
  ResponseTooLargeError,
  TimeoutError,
  ValidationError,
  type ValidationIssue,
} from './errors.js';
import { formatIssuePath } from './issue-path.js';
import { kindOfEndpoint } from './kinds/by-endpoint.js';
import { isRecord } from './kinds/secrets.js';
import { firstIssues, lenient, readsAsSent } from './lenient.js';
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
  /** Gap between chunks of the response body (an idle timeout). @default 30_000 */
  bodyMs?: number;
  /**
   * The whole of one attempt, from sending the request to the last byte of the body, however
   * steadily the bytes come: a body that trickles in a byte at a time never trips `bodyMs`.
   * @default headersMs + bodyMs
   */
  totalMs?: number;
}

/**
 * The most a response body may hold, in bytes; past it the client stops reading and throws a
 * `ResponseTooLargeError`. Every answer of the API is a page of at most 100 items (analytics rows
 * too), tens of kB in practice; 8 MiB leaves each of 100 items 80 KiB (a check with a long script).
 * It is not larger because of what JSON.parse makes of a body: `[{},{},…]` weighs twenty times its
 * bytes once parsed. A client that got 8 MiB of it peaked at 346 MB, one that got 16 MiB at
 * 680 MB (bench/response-limits.mjs), and the CLI's run should stay under 512 MB whatever a server
 * sends.
 */
export const MAX_RESPONSE_BYTES: number = 8 * 1024 * 1024;

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
  /** HTTP status; undefined when no response headers arrived. */
  status: number | undefined;
  durationMs: number;
  /** The error code when the attempt failed before its whole answer was read. */
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
  /**
   * The account's rate budget shared with the other runs calling it at once (the engine keeps it in
   * a file or in PostgreSQL): the default bucket takes its tokens from it, under its limit.
   */
  budget?: AccountBudget | undefined;
  /** Validate request bodies, queries and path params with the request schemas before sending. @default true */
  validateRequests?: boolean;
  /** An undici dispatcher to send through (tests: MockAgent). By default a keep-alive Agent owned by the client. */
  dispatcher?: Dispatcher;
  userAgent?: string;
  onRequest?: (event: RequestEvent) => void;
  onResponse?: (event: ResponseEvent) => void;
  /** Told of every wait of 2 s or more (rate limit, Retry-After, backoff), before it starts. */
  onWait?: (wait: WaitNotice) => void;
  /**
   * Told once per client, before its first request, of a setting that is risky but allowed: an
   * API key sent over plain http to a host that is not loopback; and when a shared `budget` fails.
   * By default `process.emitWarning`.
   */
  onWarning?: (message: string) => void;
  /** The most a response body may hold, in bytes (`ResponseTooLargeError` past it). @default MAX_RESPONSE_BYTES */
  maxResponseBytes?: number;
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
/** Statuses that never have a body, whatever `Content-Length` says (RFC 9110 §6.4.1). */
const BODILESS_STATUSES = new Set([204, 205, 304]);

/**
 * Sends one endpoint call: validation, rate limiting, retries, error mapping and response
 * parsing. The only place that talks to the network.
 */

/** What every attempt of one request shares. */
interface SendRequest {
  endpoint: Endpoint;
  /** `GET /v1/…`, for messages. */
  label: string;
  fullPath: string;
  /** The path as it may be shown: secrets in it redacted. */
  safePath: string;
  bucket: ReturnType<typeof rateLimitBucketFor>;
  body: string | undefined;
  headers: Record<string, string>;
  details: { method: Endpoint['method']; path: string };
  accept: readonly number[];
}

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
  readonly #maxResponseBytes: number;
  /** What to warn of before the first request, once; undefined when nothing or already told. */
  #warning: { message: string; tell: (message: string) => void } | undefined;
  /** Requests sent, retries included. */
  requestCount = 0;

  constructor(options: TransportOptions) {
    const url = new URL(options.baseUrl);
    this.#origin = url.origin;
    this.#prefix = url.pathname.replace(/\/+$/, '');
    const timeouts = { connectMs: 10_000, headersMs: 30_000, bodyMs: 30_000, ...options.timeouts };
    this.#timeouts = { ...timeouts, totalMs: timeouts.totalMs ?? timeouts.headersMs + timeouts.bodyMs };
    this.#maxResponseBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
    this.#retry = { ...DEFAULT_RETRY_POLICY, rateLimitRetries: 6, ...options.retry };
    this.#validate = options.validateRequests ?? true;
    this.#clock = options.clock ?? systemClock;
    this.#random = options.random ?? Math.random;
    this.#limiter = new RateLimiter({
      default: options.rateLimit,
      routes: options.routeRateLimits,
      clock: this.#clock,
      onWait: options.onWait,
      budget: options.budget,
      onWarning: options.onWarning,
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
      if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
        this.#warning = {
          message: `the base URL ${url.origin} is plain http to a host that is not loopback: the API key travels unencrypted to it and to anything on the way; use https, unless a proxy inside your network is meant to take it`,
          tell:
            options.onWarning ?? ((message) => process.emitWarning(message, { code: 'MONITOR_PLAIN_HTTP' })),
        };
      }
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
      // Connecting is part of an attempt: it gives up by the attempt's deadline too.
      connect: { timeout: Math.min(this.#timeouts.connectMs, this.#timeouts.totalMs) },
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

  /**
   * A 3xx: the client follows no redirect, since the API key would go along to wherever it points.
   * Name the address to use instead: the base URL the redirect leads to, when its path ends as the
   * request's did.
   */
  #redirectHint(endpoint: Endpoint, requestPath: string, location: string | undefined): string {
    const base = `${this.#origin}${this.#prefix}`;
    const setting =
      endpoint.agent === true
        ? "the agent's address (--url)"
        : "MONITOR_BASE_URL or the config's api.baseUrl";
    let target: URL | undefined;
    try {
      target = location === undefined ? undefined : new URL(location, `${this.#origin}${requestPath}`);
    } catch {
      target = undefined;
    }
    if (target === undefined)
      return `${base} redirects (monitor does not follow redirects, so that the API key goes nowhere else); set ${setting} to the address it redirects to`;
    const asked = requestPath.slice(this.#prefix.length).split('?')[0] ?? '';
    const newBase = target.pathname.endsWith(asked)
      ? `${target.origin}${target.pathname.slice(0, target.pathname.length - asked.length)}`
      : target.origin;
    return this.redact(
      `${base} redirects to ${target.origin}${target.pathname} (monitor does not follow redirects, so that the API key goes nowhere else); use the address it redirects to: set ${setting} to ${newBase}`,
    );
  }

  /** Warn once, before the first request leaves, of what the client was told to do that is risky. */
  #tellWarning(): void {
    if (this.#warning === undefined) return;
    const { message, tell } = this.#warning;
    this.#warning = undefined;
    tell(message);
  }

  /**
   * One attempt: send the request and read its whole answer, within the attempt's deadline
   * (`totalMs`, undici's own timeouts bound the wait for headers and each gap in the body) and
   * the size cap. Throws the client's own errors only: NetworkError, TimeoutError,
   * ResponseTooLargeError.
   */
  async #exchange(
    request: Omit<Dispatcher.RequestOptions, 'signal'>,
    label: string,
    details: { method: string; path: string },
  ): Promise<Answer> {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new DeadlineExceeded()), this.#timeouts.totalMs);
    const progress: Progress = { status: undefined, bytes: 0 };
    try {
      const res = await untilAborted(
        this.#request({
          ...request,
          signal: deadline.signal,
          headersTimeout: this.#timeouts.headersMs,
          bodyTimeout: this.#timeouts.bodyMs,
        }),
        deadline.signal,
      );
      progress.status = res.statusCode;
      const headers = flattenHeaders(res.headers);
      const text = await readBody(res.body, progress, headers['content-length'], this.#maxResponseBytes);
      return { status: res.statusCode, headers, text };
    } catch (cause) {
      throw this.#attemptError(cause, label, details, progress);
    } finally {
      clearTimeout(timer);
    }
  }

  #attemptError(
    cause: unknown,
    label: string,
    details: { method: string; path: string },
    progress: Progress,
  ): NetworkError | TimeoutError | ResponseTooLargeError {
    const limit = this.#maxResponseBytes;
    if (cause instanceof BodyTooLarge) {
      const size = cause.declared
        ? `it declares ${cause.bytes} bytes (Content-Length), nothing of it was read`
        : `more than ${limit} bytes had arrived when it stopped reading`;
      return new ResponseTooLargeError(
        `${label}: the answer is larger than the ${formatBytes(limit)} the client reads: ${size}`,
        {
          ...details,
          status: progress.status,
          bytes: cause.bytes,
          limit,
          hint: "no answer of the service's API comes near this size: check that the base URL is the service's API, not another server (MONITOR_BASE_URL or the config's api.baseUrl)",
        },
      );
    }
    if (cause instanceof DeadlineExceeded) {
      const ms = this.#timeouts.totalMs;
      const headers = progress.status === undefined;
      const message = headers
        ? `${label}: no response headers within ${ms} ms`
        : `${label}: no complete answer within ${ms} ms (status ${progress.status}, ${progress.bytes} bytes of the body so far)`;
      return new TimeoutError(message, {
        ...details,
        status: progress.status,
        phase: headers ? 'headers' : 'body',
        hint: headers
          ? 'the service is slow to answer; try again or raise the timeout'
          : 'the service sends its answer too slowly; try again or raise the timeout',
      });
    }
    return this.#networkError(cause, label, { ...details, status: progress.status });
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
    const body = input.body === undefined ? undefined : JSON.stringify(input.body);
    const request: SendRequest = {
      endpoint,
      label,
      fullPath,
      safePath: this.redact(fullPath),
      bucket: rateLimitBucketFor(method, path, this.#limiter.routes),
      body,
      headers: body === undefined ? this.#headers : { ...this.#headers, 'content-type': 'application/json' },
      details: { method, path: this.redact(path) },
      accept,
    };
    this.#tellWarning();
    const tries = { failures: 0, rateLimited: 0 };
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.#attempt(request, attempt, tries);
      if (outcome !== 'again') return outcome;
    }
  }

  /** One attempt: the answer, or `again` once the wait before the next attempt is over. */
  async #attempt(
    request: SendRequest,
    attempt: number,
    tries: { failures: number; rateLimited: number },
  ): Promise<RawResponse | 'again'> {
    const { endpoint, label, fullPath, details } = request;
    const { method } = endpoint;
    await this.#limiter.acquire(request.bucket);
    const event = { method, path: request.safePath, operation: endpoint.operation, attempt };
    this.#onRequest?.(event);
    const started = this.#clock.now();
    this.requestCount++;
    let answer: Answer;
    try {
      answer = await this.#exchange(
        { origin: this.#origin, path: fullPath, method, headers: request.headers, body: request.body },
        label,
        details,
      );
    } catch (caught) {
      const error = caught as NetworkError | TimeoutError | ResponseTooLargeError;
      this.#onResponse?.({
        ...event,
        status: error.status,
        durationMs: this.#clock.now() - started,
        errorCode: error.code,
      });
      tries.failures++;
      await this.#afterUnanswered(error, request, tries.failures);
      return 'again';
    }
    const { status, headers: responseHeaders, text } = answer;
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
    if (request.accept.includes(status)) return { status, headers: responseHeaders, data: errorBody };
    // A body that is not JSON is cut, after redaction: a secret cut in two would be missed.
    const serverMessage =
      errorBody.message === undefined
        ? undefined
        : this.redact(errorBody.message).slice(0, errorBody.notJson ? 200 : undefined);
    if (status === 429) {
      tries.rateLimited++;
      this.#rateLimited(request, responseHeaders, serverMessage, tries.rateLimited);
      return 'again';
    }
    const statusError = this.#statusError(request, status, errorBody, serverMessage, responseHeaders);
    if (status >= 500 && this.#retriesServerError(request, status, serverMessage, statusError)) {
      tries.failures++;
      if (tries.failures < this.#retry.attempts) {
        await this.#wait(this.#backoff(tries.failures), `${label} answered ${status}; trying again`);
        return 'again';
      }
    }
    throw statusError;
  }

  /**
   * A request with no answer (the network, a deadline, a body past the cap): thrown when it must
   * not or cannot be sent again, else the wait before the next attempt.
   */
  async #afterUnanswered(
    error: NetworkError | TimeoutError | ResponseTooLargeError,
    request: SendRequest,
    failures: number,
  ): Promise<void> {
    const { method } = request.endpoint;
    const { label, details } = request;
    // As large again if sent again. A create answered 2xx or 5xx may have happened all the same.
    if (error instanceof ResponseTooLargeError) throw tooLargeOutcome(error, method, label);
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
    // A client that was closed or destroyed sends nothing more.
    if (failures >= this.#retry.attempts || this.#closed) throw error;
    await this.#wait(this.#backoff(failures), `${label} failed (${error.code}); trying again`);
  }

  /** A 429: the route's bucket paused for Retry-After (or a backoff); thrown past the retries for it. */
  #rateLimited(
    request: SendRequest,
    responseHeaders: Answer['headers'],
    serverMessage: string | undefined,
    rateLimited: number,
  ): void {
    const { label, details } = request;
    const retryAfterMs = parseRetryAfter(responseHeaders['retry-after'], this.#clock.now());
    const wait =
      (retryAfterMs ?? this.#backoff(rateLimited)) +
      this.#random() * Math.max(100, (retryAfterMs ?? 0) * 0.2);
    this.#limiter.pause(
      request.bucket,
      this.#clock.now() + wait,
      retryAfterMs === undefined
        ? `${label} was rate limited (429)`
        : `${label} was rate limited (429, Retry-After ${Math.round(retryAfterMs / 1000)} s)`,
    );
    if (rateLimited <= this.#retry.rateLimitRetries) return;
    throw new RateLimitedError(
      `${label} was rate limited ${rateLimited} times in a row (429${serverMessage ? `: ${serverMessage}` : ''})`,
      {
        ...details,
        status: 429,
        serverMessage,
        retryAfterMs,
        hint: 'the account is rate limited: lower --parallelism or the client rate limit, or try again later',
      },
    );
  }

  /** The error of a status outside the endpoint's successes, with its hint. */
  #statusError(
    request: SendRequest,
    status: number,
    errorBody: ReturnType<typeof decodeErrorBody>,
    serverMessage: string | undefined,
    responseHeaders: Answer['headers'],
  ): ApiError {
    const { endpoint, label, fullPath, details } = request;
    return errorForStatus(
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
        ...(status >= 300 && status < 400
          ? { hint: this.#redirectHint(endpoint, fullPath, responseHeaders.location) }
          : {}),
      },
    );
  }

  /**
   * Whether a 5xx may be sent again. A read is safe to repeat. A write the server failed on may or
   * may not have happened: a create is never sent again blindly, and neither is any write answered
   * with a plain 500 (thrown as an `AmbiguousWriteError`); a gateway's 502/503/504 to an idempotent
   * PUT or DELETE is.
   */
  #retriesServerError(
    request: SendRequest,
    status: number,
    serverMessage: string | undefined,
    statusError: ApiError,
  ): boolean {
    const { method } = request.endpoint;
    const read = method === 'GET';
    const idempotentRetry = (method === 'PUT' || method === 'DELETE') && RETRYABLE_STATUSES.has(status);
    if (!read && !idempotentRetry) {
      throw new AmbiguousWriteError(
        `${request.label}: the server answered ${status} after the request was sent; the write may or may not have happened`,
        {
          ...request.details,
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
    return read ? READ_RETRYABLE_STATUSES.has(status) : true;
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
    // `validate` stops at the first problem; only a body that fails is walked for its first few
    // (zod's own list of a hostile body's issues can take gigabytes).
    const result = !schema.validate(json)
      ? undefined
      : asSent
        ? { success: true as const, data: json }
        : schema.safeParse(json);
    if (result === undefined || !result.success) {
      const issues = firstIssues(schema, json).map((i) => ({
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
    return result.data;
  }

  #networkError(
    cause: unknown,
    label: string,
    details: { method: string; path: string; status: number | undefined },
  ): NetworkError | TimeoutError {
    const code = errorCode(cause);
    const reason = this.redact(cause instanceof Error ? cause.message : String(cause));
    if (code === 'UND_ERR_CONNECT_TIMEOUT') {
      const ms = Math.min(this.#timeouts.connectMs, this.#timeouts.totalMs);
      return new TimeoutError(`${label}: connecting timed out after ${ms} ms`, {
        ...details,
        phase: 'connect',
        cause,
        hint: 'check MONITOR_BASE_URL and the network, or raise the connect timeout',
      });
    }
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
      const phase = code === 'UND_ERR_HEADERS_TIMEOUT' ? 'headers' : 'body';
      const message =
        phase === 'headers'
          ? `${label}: no response headers within ${this.#timeouts.headersMs} ms`
          : `${label}: the response body stalled: nothing arrived for ${this.#timeouts.bodyMs} ms`;
      return new TimeoutError(message, {
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
    const json: unknown = JSON.parse(text);
    // `validate` first: zod's issues of a hostile body (`keys: [{},{},…]`) could fill the memory.
    if (!errorBodySchema.validate(json)) return {};
    const body = errorBodySchema.parse(json);
    return {
      message: body.message ?? body.error,
      reason: body.error,
      // The fields the server named, as far as a person reads them.
      keys: body.validation?.keys?.slice(0, 100),
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

/** One attempt's answer, whole. */
interface Answer {
  status: number;
  headers: Record<string, string | undefined>;
  text: string;
}

/** How far an attempt got: its status once the headers came, the body's bytes read so far. */
interface Progress {
  status: number | undefined;
  bytes: number;
}

/** The reason an attempt's deadline aborts it with. */
class DeadlineExceeded extends Error {}

/**
 * The answer's headers, or the signal's reason once it aborts. undici acts on an abort only once
 * the request has a connection: one still waiting for it (a host that does not answer) would
 * outlast the deadline. Its answer, should one come after all, is dropped.
 */
async function untilAborted(
  sent: Promise<Dispatcher.ResponseData>,
  signal: AbortSignal,
): Promise<Dispatcher.ResponseData> {
  let stop: (() => void) | undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    stop = () => reject(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
  });
  try {
    return await Promise.race([sent, aborted]);
  } catch (error) {
    sent.then(
      (late) => late.body.destroy(),
      () => {},
    );
    throw error;
  } finally {
    if (stop !== undefined) signal.removeEventListener('abort', stop);
  }
}

/** Thrown by `readBody` past the cap; `declared` when `Content-Length` said so before any byte. */
class BodyTooLarge extends Error {
  constructor(
    readonly bytes: number,
    readonly declared: boolean,
  ) {
    super(`response body over the cap (${bytes} bytes)`);
  }
}

/** A response body as the client reads it: undici's readable, chunk by chunk. */
interface BodyStream extends AsyncIterable<Uint8Array> {
  destroy(error?: Error): unknown;
}

const utf8 = new TextDecoder();

/**
 * The response body as text, read chunk by chunk and counted: past `limit` bytes (or when
 * `Content-Length` says it will be) the stream is destroyed, which closes the connection, and
 * nothing more is read. A bodiless status with a stray `Content-Length` is an empty answer, not a
 * broken connection (undici reports the missing bytes as a length mismatch).
 */
async function readBody(
  body: BodyStream,
  progress: Progress,
  contentLength: string | undefined,
  limit: number,
): Promise<string> {
  const bodiless = BODILESS_STATUSES.has(progress.status ?? 0);
  const declared = Number(contentLength);
  if (!bodiless && Number.isFinite(declared) && declared > limit) {
    body.destroy();
    throw new BodyTooLarge(declared, true);
  }
  const chunks: Uint8Array[] = [];
  try {
    for await (const chunk of body) {
      progress.bytes += chunk.byteLength;
      if (progress.bytes > limit) {
        body.destroy();
        throw new BodyTooLarge(progress.bytes, false);
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (bodiless && (error as { code?: unknown }).code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') return '';
    throw error;
  }
  // TextDecoder drops a byte order mark, as undici's own `text()` does.
  return chunks.length === 0 ? '' : utf8.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
}

/** A POST whose answer was too large to read may have created what it sent, unless refused (4xx). */
function tooLargeOutcome(error: ResponseTooLargeError, method: string, label: string): ApiError {
  const refused = error.status !== undefined && error.status >= 400 && error.status < 500;
  if (method !== 'POST' || refused) return error;
  return new AmbiguousWriteError(
    `${label}: the answer to the write was larger than the ${formatBytes(error.limit)} the client reads; the write may or may not have happened`,
    {
      method: error.method,
      path: error.path,
      status: error.status,
      cause: error,
      hint: 'read the resource back before retrying, so that it is not created twice',
    },
  );
}

/** `8 MiB`, `512 KiB`, `300 bytes`. */
function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/**
 * Whether a URL's host is this machine: `localhost` (and `*.localhost`), 127.0.0.0/8, `::1` and
 * the IPv4-mapped loopback (`URL` writes IPv4 in full and IPv6 compressed, in brackets).
 */
export function isLoopback(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127\.\d+\.\d+\.\d+$/.test(host) ||
    host === '::1' ||
    /^::ffff:(7f[0-9a-f]{2}:[0-9a-f]{1,4}|127\.\d+\.\d+\.\d+)$/.test(host)
  );
}

/** Whether the route always exists: no id in its path, and no 404 for a resource it refers to. */
function routeIsFixed(endpoint: Endpoint): boolean {
  return !endpoint.path.includes('{') && !(endpoint.errors ?? []).includes(404);
}
