import { STATUS_CODES } from 'node:http';
import type { Clock } from '@monitor/api';
import { CodeHostError } from './thread.js';

/** A wait the client is about to make, for the one line the CLI prints about it. */
export interface HostWait {
  seconds: number;
  /** Why, e.g. "GitHub's secondary rate limit (403, retry-after: 30)". */
  reason: string;
}

/** A code host's answer, read whole. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The body as JSON, or undefined when it is not JSON. */
  json(): unknown;
}

/** A rate-limit answer: why, and how long it asks to wait (undefined: it gives no figure). */
export interface RateLimit {
  reason: string;
  waitMs: number | undefined;
}

/** How one code host speaks: its headers, rate limits, pages and hints. */
export interface HostProtocol {
  /** For messages: "GitHub", "GitLab". */
  readonly name: string;
  /** Sent with every request: authorization, user agent, accept, API version. */
  readonly headers: Record<string, string>;
  rateLimit(answer: Answer, now: number): RateLimit | undefined;
  /** The next page of a list, or undefined on the last one. */
  nextPage(answer: Answer, url: URL): URL | undefined;
  /** The host's own words for a failed answer. */
  message(answer: Answer): string;
  hint(status: number, message: string): string | undefined;
  /** What to do about a rate limit that is not waited out (`until`: when it ends, if known). */
  rateLimitHint(until: Date | undefined): string;
}

export interface HostHttpOptions {
  clock: Clock;
  /** No request and no wait goes past it (clock time, ms): the whole posting's budget. */
  deadline: number;
  /** Each request's own limit. @default 30 s */
  requestTimeoutMs?: number;
  /** Told before every wait longer than about 2 s. */
  onWait?: (wait: HostWait) => void;
}

export interface RequestOptions {
  body?: unknown;
  /**
   * Whether sending it twice does no harm. GET, PUT, PATCH and DELETE are; a POST is not unless
   * it says so (a GraphQL query, adding a label): a create is never retried here.
   */
  idempotent?: boolean;
}

/** Retries of a 5xx or a lost connection, for requests that are safe to repeat. */
const RETRIES = 3;
/** Rate limits waited out per request. */
const RATE_LIMIT_WAITS = 3;
/** A rate limit that asks for longer is reported, not waited out. */
export const MAX_RATE_LIMIT_WAIT_MS = 60_000;
/** Waits from this long on are announced. */
const ANNOUNCE_WAIT_MS = 2_000;

const backoffMs = (attempt: number) => 1000 * 2 ** (attempt - 1);
const seconds = (ms: number) => Math.ceil(ms / 1000);
const duration = (ms: number) => (ms < 1000 ? `${ms} ms` : `${seconds(ms)} s`);

/** `Retry-After` as seconds or an HTTP date, in ms from `now`. */
export function parseRetryAfter(header: string | null, now: number): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const value = Number(header);
  if (Number.isFinite(value) && value >= 0) return value * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The `rel="next"` target of a `Link` header. */
export function linkNext(link: string | null): string | undefined {
  for (const part of (link ?? '').split(',')) {
    const m = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
    if (m?.[1] !== undefined) return m[1];
  }
  return undefined;
}

function answerOf(status: number, headers: Headers, text: string): Answer {
  return {
    status,
    headers,
    text,
    json: () => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return undefined;
      }
    },
  };
}

/** `${status} ${message}`, without the status twice when the host's message starts with it. */
export function statusLine(status: number, message: string): string {
  const text = message.trim() === '' ? (STATUS_CODES[status] ?? '') : message.trim();
  return text.startsWith(String(status)) ? text : `${status} ${text}`.trim();
}

const utc = (d: Date) => `${d.toISOString().slice(11, 19)} UTC`;

export interface HostHttp {
  request(what: string, method: string, url: URL, options?: RequestOptions): Promise<Answer>;
  /** Every item of a paginated list, following the host's next-page links. */
  paginate<T>(what: string, url: URL): Promise<T[]>;
}

/**
 * Requests to one code host. A 5xx or a lost connection is retried (after the host's
 * `Retry-After`, else 1, 2, 4 s) only for requests that are safe to repeat; a failed create comes
 * back as `outcomeUnknown` for the caller to list and adopt. Rate limits are waited out when they
 * ask for a minute or less; nothing waits past `deadline`.
 */
export function hostHttp(protocol: HostProtocol, options: HostHttpOptions): HostHttp {
  return new HostClient(protocol, options);
}

class HostClient implements HostHttp {
  readonly #protocol: HostProtocol;
  readonly #options: HostHttpOptions;
  readonly #requestTimeoutMs: number;

  constructor(protocol: HostProtocol, options: HostHttpOptions) {
    this.#protocol = protocol;
    this.#options = options;
    this.#requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  }

  async request(
    what: string,
    method: string,
    url: URL,
    { body, idempotent = method !== 'POST' }: RequestOptions = {},
  ): Promise<Answer> {
    const protocol = this.#protocol;
    const now = () => this.#options.clock.now();
    let failures = 0;
    let rateWaits = 0;
    for (;;) {
      if (this.#left() <= 0) {
        throw new CodeHostError(`${what}: the time for posting ran out before ${protocol.name} answered`, {
          hint: `${protocol.name} was slow or kept failing: re-run the job`,
        });
      }
      const timeoutMs = Math.min(this.#requestTimeoutMs, this.#left());
      let answer: Answer;
      try {
        answer = await this.#fetchOnce(method, url, body, timeoutMs);
      } catch (error) {
        const failure = this.#transportError(what, error, timeoutMs, !idempotent);
        failures++;
        if (!idempotent || failures > RETRIES || backoffMs(failures) >= this.#left()) throw failure;
        await this.#wait(backoffMs(failures), `${protocol.name} did not answer ${method} ${url.pathname}`);
        continue;
      }
      if (answer.status < 400) return answer;
      const limit = protocol.rateLimit(answer, now());
      if (limit !== undefined) {
        rateWaits++;
        const ms = limit.waitMs ?? backoffMs(rateWaits) * 5;
        if (rateWaits > RATE_LIMIT_WAITS || ms > MAX_RATE_LIMIT_WAIT_MS || ms >= this.#left()) {
          throw this.#rateLimitError(what, answer, limit);
        }
        await this.#wait(ms, limit.reason);
        continue;
      }
      if (answer.status < 500) throw this.#statusError(what, answer);
      failures++;
      const ms = parseRetryAfter(answer.headers.get('retry-after'), now()) ?? backoffMs(failures);
      if (!idempotent || failures > RETRIES || ms >= this.#left()) {
        throw this.#statusError(what, answer, !idempotent);
      }
      await this.#wait(
        ms,
        `${protocol.name} answered ${statusLine(answer.status, '')} to ${method} ${url.pathname}`,
      );
    }
  }

  async paginate<T>(what: string, first: URL): Promise<T[]> {
    const items: T[] = [];
    const seen = new Set<string>();
    for (let url: URL | undefined = first; url !== undefined; ) {
      if (seen.has(url.href)) break;
      seen.add(url.href);
      const answer = await this.request(what, 'GET', url);
      const page = answer.json();
      if (!Array.isArray(page)) {
        throw new CodeHostError(`${what}: ${this.#protocol.name} answered ${answer.status} without a list`, {
          status: answer.status,
        });
      }
      items.push(...(page as T[]));
      const next = this.#protocol.nextPage(answer, url);
      // The token goes only where the first request went.
      url = next !== undefined && next.origin === first.origin ? next : undefined;
    }
    return items;
  }

  /** The time left before the deadline, in ms. */
  #left(): number {
    return this.#options.deadline - this.#options.clock.now();
  }

  async #wait(ms: number, reason: string): Promise<void> {
    if (ms >= ANNOUNCE_WAIT_MS) this.#options.onWait?.({ seconds: seconds(ms), reason });
    await this.#options.clock.sleep(ms);
  }

  async #fetchOnce(method: string, url: URL, body: unknown, timeoutMs: number): Promise<Answer> {
    const headers: Record<string, string> = { ...this.#protocol.headers };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    return answerOf(response.status, response.headers, await response.text());
  }

  /** A request that got no answer: a timeout says so, with the time it was given. */
  #transportError(what: string, error: unknown, timeoutMs: number, outcomeUnknown: boolean): CodeHostError {
    const host = this.#protocol.name;
    const name = (error as { name?: unknown }).name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      return new CodeHostError(`${what}: no answer from ${host} within ${duration(timeoutMs)} (timed out)`, {
        hint: `${host} was slow or unreachable from this runner: re-run the job`,
        outcomeUnknown,
      });
    }
    const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
    const detail = typeof cause?.message === 'string' ? cause.message : (error as Error).message;
    return new CodeHostError(`${what}: cannot reach ${host}: ${detail}`, {
      hint: `check that the runner can reach ${host} and that its API URL is right`,
      outcomeUnknown,
    });
  }

  #statusError(what: string, answer: Answer, outcomeUnknown = false): CodeHostError {
    const message = this.#protocol.message(answer);
    return new CodeHostError(`${what}: ${statusLine(answer.status, message)}`, {
      status: answer.status,
      hint: this.#protocol.hint(answer.status, message),
      outcomeUnknown,
    });
  }

  #rateLimitError(what: string, answer: Answer, limit: RateLimit): CodeHostError {
    const ms = limit.waitMs;
    const until = ms === undefined ? undefined : new Date(this.#options.clock.now() + ms);
    const asks =
      ms === undefined || until === undefined
        ? ''
        : `; it asks to wait ${seconds(ms)} s, until ${utc(until)}`;
    return new CodeHostError(
      `${what}: ${limit.reason}: ${statusLine(answer.status, this.#protocol.message(answer))}${asks}`,
      { status: answer.status, hint: this.#protocol.rateLimitHint(until) },
    );
  }
}

/** Runs `load` once; later calls get the same promise. */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= load();
    return loaded;
  };
}
