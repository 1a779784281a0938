import { setTimeout as wait } from 'node:timers/promises';
import { type Endpoint, privateLocationMetricsQuerySchema, serviceEndpoints } from '@monitor/api';
import type { z } from '@monitor/api/zod';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EmulatorClock } from './clock.js';
import type { Answer, Call, EmulatorState } from './context.js';
import Fastify from './fastify.js';
import { Faults } from './faults.js';
import { applyFixture, type Fixture } from './fixture.js';
import { handlers } from './handlers/index.js';
import { openApiDocument, swaggerDocument } from './openapi.js';
import { errorBody, HttpProblem } from './problem.js';
import { parseQueryString } from './query-string.js';
import { type RateLimitConfig, ServerRateLimiter } from './rate-limit.js';
import { RequestLog, type RequestLogEntry } from './request-log.js';
import { emptyAccount, Store } from './store.js';
import { parseOr400 } from './validation.js';

export interface AccountConfig {
  /** The account id (a UUID), sent as `x-monitor-account`. */
  id: string;
  name?: string;
  /** API keys with full access to this account. */
  keys: string[];
  /** API keys that may only read (GET). */
  readOnlyKeys?: string[];
  /** Operations (e.g. `alertChannels.create`) the account's plan lacks: answered 402. */
  paymentRequired?: string[];
}

export interface AppOptions {
  accounts: AccountConfig[];
  fixture: Fixture;
  dataFile?: string;
  rateLimits: RateLimitConfig | false;
  rcaDurationMs: number | null;
  clock: 'running' | 'manual';
  requestLogSize: number;
  historySize: number;
  log?: (line: string) => void;
}

export interface App {
  fastify: FastifyInstance;
  state: EmulatorState;
  faults: Faults;
  requests: RequestLog;
  reset(): void;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    endpoint?: Endpoint;
  }
  interface FastifyRequest {
    accountId?: string;
    faultNote?: string;
  }
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'DELETE']);

function bearer(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  return m?.[1];
}

/** What the parts of the server share: the options, the state and the request machinery. */
interface Server {
  options: AppOptions;
  state: EmulatorState;
  store: Store;
  clock: EmulatorClock;
  faults: Faults;
  limiter: ServerRateLimiter | undefined;
  requests: RequestLog;
  accountsById: Map<string, AccountConfig>;
}

export function buildApp(options: AppOptions): App {
  const clock = new EmulatorClock(options.clock);
  const store = new Store(options.dataFile);
  const state: EmulatorState = {
    store,
    clock,
    rcaDurationMs: options.rcaDurationMs,
    historySize: options.historySize,
    url: '',
  };
  const server: Server = {
    options,
    state,
    store,
    clock,
    faults: new Faults(),
    limiter: options.rateLimits === false ? undefined : new ServerRateLimiter(options.rateLimits),
    requests: new RequestLog(options.requestLogSize),
    accountsById: new Map(options.accounts.map((a) => [a.id, a])),
  };
  seedAccounts(server, false);
  const fastify = Fastify({
    logger: false,
    routerOptions: { querystringParser: parseQueryString },
    bodyLimit: 5 * 1024 * 1024,
  });
  parseJsonOnly(fastify);
  answerProblems(fastify, options);
  logResponses(fastify, server);
  // Auth, rate limits and faults come before the body is parsed, as at the real edge.
  fastify.addHook('onRequest', (request, reply) => atTheEdge(server, request, reply));
  routeEndpoints(fastify, server);
  serveContracts(fastify);
  const reset = () => {
    seedAccounts(server, true);
    server.limiter?.reset();
    server.requests.clear();
  };
  return { fastify, state, faults: server.faults, requests: server.requests, reset };
}

/** Each account's fixture: only for accounts the data has not got yet, unless `force`. */
function seedAccounts({ options, store, clock }: Server, force: boolean): void {
  let seeded = false;
  for (const account of options.accounts) {
    if (!force && store.data.accounts[account.id] !== undefined) continue;
    store.data.accounts[account.id] = emptyAccount();
    applyFixture(store.account(account.id), account.id, options.fixture, clock);
    seeded = true;
  }
  // A start over data that has every account changes nothing: the file is not written again.
  if (seeded) store.save();
}

/** A problem as the service answers it. */
function send(reply: FastifyReply, problem: HttpProblem): void {
  reply
    .code(problem.status)
    .headers(problem.headers)
    .send(errorBody(problem.status, problem.message, problem.extra));
}

/** Bodies are JSON or nothing: anything else is a 415, a body that does not parse a 400. */
function parseJsonOnly(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new HttpProblem(400, 'Invalid request payload JSON format'), undefined);
    }
  });
  fastify.addContentTypeParser('*', (_req, _payload, done) => {
    done(
      new HttpProblem(415, 'Unsupported Media Type: send JSON with Content-Type: application/json'),
      undefined,
    );
  });
}

/** Every error and unknown route answered as the service does. */
function answerProblems(fastify: FastifyInstance, options: AppOptions): void {
  fastify.setErrorHandler((raw, request, reply) => {
    if (raw instanceof HttpProblem) return send(reply, raw);
    const error = raw instanceof Error ? raw : new Error(String(raw));
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 415) return send(reply, new HttpProblem(415, 'Unsupported Media Type'));
    if (status !== undefined && status >= 400 && status < 500)
      return send(reply, new HttpProblem(status, error.message));
    options.log?.(`error in ${request.method} ${request.url}: ${error.stack ?? error.message}`);
    return send(reply, new HttpProblem(500, 'An internal server error occurred'));
  });
  fastify.setNotFoundHandler((request, reply) => {
    send(reply, new HttpProblem(404, `Route ${request.method} ${request.url.split('?')[0]} not found`));
  });
}

/** Each answer in the request log (and the log line). */
function logResponses(fastify: FastifyInstance, { options, requests }: Server): void {
  fastify.addHook('onResponse', async (request, reply) => {
    const endpoint = request.routeOptions.config.endpoint;
    const entry: RequestLogEntry = {
      method: request.method,
      path: request.url.split('?')[0] ?? request.url,
      status: reply.raw.headersSent ? reply.statusCode : 0,
      durationMs: Math.round(reply.elapsedTime * 10) / 10,
      at: Math.round(Date.now() - reply.elapsedTime),
    };
    if (endpoint !== undefined) {
      entry.route = endpoint.path;
      entry.operation = endpoint.operation;
    }
    if (request.accountId !== undefined) entry.accountId = request.accountId;
    if (request.faultNote !== undefined) entry.fault = request.faultNote;
    requests.push(entry);
    options.log?.(
      `${entry.method} ${request.url} ${entry.status === 0 ? 'dropped' : entry.status} ${entry.durationMs}ms${entry.fault ? ` (${entry.fault})` : ''}`,
    );
  });
}

/** Destroy the connection without an answer; a hijacked reply skips `onResponse`, so log it here. */
function dropConnection(
  requests: RequestLog,
  request: FastifyRequest,
  reply: FastifyReply,
  endpoint: Endpoint,
  accountId: string,
  fault: string,
): void {
  const path = request.url.split('?')[0] ?? request.url;
  request.faultNote = fault;
  reply.hijack();
  request.raw.socket.destroy();
  requests.push({
    method: request.method,
    path,
    route: endpoint.path,
    operation: endpoint.operation,
    status: 0,
    accountId,
    fault,
    durationMs: 0,
    at: Date.now(),
  });
}

/** What the edge does before a request reaches its handler: rate limits, auth, the plan, faults. */
async function atTheEdge(server: Server, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const endpoint = request.routeOptions.config.endpoint;
  const path = request.url.split('?')[0] ?? request.url;
  if (endpoint === undefined && !path.startsWith('/v1/') && !path.startsWith('/v2/')) return;
  const caller = callerOf(server, request);
  if (server.limiter !== undefined) {
    const decision = server.limiter.take(caller.bucketAccount, request.method, path, server.clock.now());
    reply.headers({
      'x-ratelimit-limit': String(decision.limit),
      'x-ratelimit-remaining': String(decision.remaining),
      'x-ratelimit-reset': String(decision.resetSeconds),
    });
    if (!decision.allowed) {
      reply.header('retry-after', String(decision.resetSeconds));
      return send(reply, new HttpProblem(429, 'Rate limit exceeded: too many requests'));
    }
  }
  const refused = refusal(request.method, caller);
  if (refused !== undefined) return send(reply, refused);
  // Past the refusals, the caller names an account its key may reach.
  const account = caller.account as AccountConfig;
  const accountId = caller.accountId as string;
  request.accountId = accountId;
  if (endpoint === undefined) return;
  if (account.paymentRequired?.includes(endpoint.operation)) {
    return send(reply, new HttpProblem(402, "This feature is not included in the account's plan"));
  }
  await injectFaults(server, request, reply, endpoint, accountId);
}

/** Who calls: the key, the account it names, and whether the key may reach it. */
interface Caller {
  key: string | undefined;
  accountId: string | undefined;
  account: AccountConfig | undefined;
  knownKey: boolean;
  hasAccess: boolean;
  /** The rate-limit bucket: the account's, or one for every caller it does not know. */
  bucketAccount: string;
}

function callerOf({ options, accountsById }: Server, request: FastifyRequest): Caller {
  const key = bearer(request.headers.authorization);
  const accountHeader = request.headers['x-monitor-account'];
  const accountId = typeof accountHeader === 'string' && accountHeader !== '' ? accountHeader : undefined;
  const account = accountId === undefined ? undefined : accountsById.get(accountId);
  const knownKey =
    key !== undefined && options.accounts.some((a) => a.keys.includes(key) || a.readOnlyKeys?.includes(key));
  const hasAccess =
    account !== undefined &&
    key !== undefined &&
    (account.keys.includes(key) || account.readOnlyKeys?.includes(key) === true);
  const bucketAccount = knownKey && hasAccess && accountId !== undefined ? accountId : 'anonymous';
  return { key, accountId, account, knownKey, hasAccess, bucketAccount };
}

/** Why the edge refuses the caller (401, 403), or undefined when it may go on. */
function refusal(method: string, caller: Caller): HttpProblem | undefined {
  const { key, accountId, account } = caller;
  if (key === undefined)
    return new HttpProblem(401, 'Missing or malformed Authorization header: use "Bearer <API key>"');
  if (!caller.knownKey) return new HttpProblem(401, 'Invalid API key');
  if (accountId === undefined) return new HttpProblem(401, 'Missing x-monitor-account header');
  if (!caller.hasAccess || account === undefined)
    return new HttpProblem(403, 'The API key has no access to this account');
  if (WRITE_METHODS.has(method) && account.readOnlyKeys?.includes(key) && !account.keys.includes(key)) {
    return new HttpProblem(403, 'The API key is read-only');
  }
  return undefined;
}

/** The faults configured to happen before a request is processed: latency, a reset, a 429, a 5xx. */
async function injectFaults(
  { faults, requests }: Server,
  request: FastifyRequest,
  reply: FastifyReply,
  endpoint: Endpoint,
  accountId: string,
): Promise<void> {
  const latency = faults.latency();
  if (latency > 0) {
    request.faultNote = `latency ${Math.round(latency)} ms`;
    await wait(latency);
  }
  const fault = faults.before();
  if (fault.kind === 'reset') {
    dropConnection(requests, request, reply, endpoint, accountId, 'reset');
    return;
  }
  if (fault.kind === 'rateLimit') {
    request.faultNote = 'injected 429';
    reply.header('retry-after', '1');
    return send(reply, new HttpProblem(429, 'Rate limit exceeded: too many requests'));
  }
  if (fault.kind === 'serverError') {
    request.faultNote = `injected ${fault.status}`;
    return send(
      reply,
      new HttpProblem(
        fault.status,
        fault.status === 503 ? 'Service Unavailable' : 'An internal server error occurred',
      ),
    );
  }
}

/** Every endpoint of the service, each on its handler. */
function routeEndpoints(fastify: FastifyInstance, server: Server): void {
  const querySchemas = new Map<string, z.ZodType>([
    ['privateLocations.metrics', privateLocationMetricsQuerySchema(() => server.clock.now())],
  ]);
  for (const endpoint of serviceEndpoints) {
    const handler = handlers[endpoint.operation];
    if (handler === undefined) throw new Error(`no emulator handler for ${endpoint.operation}`);
    fastify.route({
      method: endpoint.method,
      url: endpoint.path.replace(/\{(\w+)\}/g, ':$1'),
      config: { endpoint },
      handler: (request, reply) =>
        handle(
          server,
          endpoint,
          handler,
          querySchemas.get(endpoint.operation) ?? endpoint.query,
          request,
          reply,
        ),
    });
  }
}

/** One request of an endpoint: its input checked, its handler run, what faults say after it. */
async function handle(
  { store, state, faults, requests }: Server,
  endpoint: Endpoint,
  handler: NonNullable<(typeof handlers)[string]>,
  querySchema: z.ZodType | undefined,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const accountId = request.accountId as string;
  const path = request.url.split('?')[0] ?? '';
  if (faults.echoBody(endpoint.method, path, endpoint.path)) {
    request.faultNote = 'injected 400 quoting the body';
    throw new HttpProblem(400, `Invalid request payload: ${JSON.stringify(request.body ?? null)}`);
  }
  const call: Call = {
    ...inputOf(endpoint, querySchema, request),
    accountId,
    account: store.account(accountId),
    emu: state,
  };
  let answer: Answer;
  try {
    answer = await handler(call);
  } catch (e) {
    if (e instanceof HttpProblem && endpoint.operation === 'statusPages.deleteSubscription') {
      e.extra.attributes ??= {};
    }
    throw e;
  }
  if (WRITE_METHODS.has(endpoint.method) && answer.status < 400) store.save();
  const hold = faults.holdAfter(endpoint.method, path, endpoint.path);
  if (hold > 0) {
    request.faultNote = `held ${hold}ms after processing`;
    await wait(hold);
  }
  if (faults.dropAfter(endpoint.method, path, endpoint.path)) {
    dropConnection(requests, request, reply, endpoint, accountId, 'dropped after processing');
    return reply;
  }
  reply.code(answer.status);
  if (answer.headers !== undefined) reply.headers(answer.headers);
  if (answer.status === 204 || answer.body === undefined) return reply.send();
  return reply.send(answer.body);
}

/** The request's params, query and body, each checked by the endpoint's schema (a 400 when not). */
function inputOf(
  endpoint: Endpoint,
  querySchema: z.ZodType | undefined,
  request: FastifyRequest,
): Pick<Call, 'params' | 'query' | 'body'> {
  const params = endpoint.params === undefined ? {} : parseOr400(endpoint.params, request.params, 'params');
  const rawQuery = (request.query ?? {}) as Record<string, unknown>;
  let query: unknown = {};
  if (querySchema !== undefined) query = parseOr400(querySchema, rawQuery, 'query');
  else if (Object.keys(rawQuery).length > 0) {
    const [first] = Object.keys(rawQuery);
    throw new HttpProblem(400, `"${first}" is not allowed`, {
      validation: { source: 'query', keys: Object.keys(rawQuery) },
    });
  }
  const body =
    endpoint.body === undefined ? undefined : parseOr400(endpoint.body, request.body ?? {}, 'payload');
  return { params, query, body };
}

/**
 * Contract documents: no auth, not rate limited. Made on the first request: an emulator that
 * serves a `--local` command never needs them, and they cost tens of milliseconds to make.
 */
function serveContracts(fastify: FastifyInstance): void {
  let openapi: ReturnType<typeof openApiDocument> | undefined;
  fastify.get('/openapi.json', async () => {
    openapi ??= openApiDocument();
    return openapi;
  });
  let swagger: ReturnType<typeof swaggerDocument> | undefined;
  fastify.get('/swagger.json', async (_request, reply) => {
    reply.headers({ deprecation: 'true', link: '</openapi.json>; rel="successor-version"' });
    swagger ??= swaggerDocument();
    return swagger;
  });
}
