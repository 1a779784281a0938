import type { ServerResponse } from 'node:http';
import { Agent, buildConnector } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { type ClientOptions, createAgentHealthClient, createClient } from './client.js';
import type { Clock } from './clock.js';
import {
  AmbiguousWriteError,
  ConfigError,
  ContractError,
  ForbiddenError,
  HttpError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  ResponseTooLargeError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
  ValidationError,
} from './errors.js';
import { isLoopback, MAX_RESPONSE_BYTES, type RequestEvent, type ResponseEvent } from './http.js';
import { collect } from './pagination.js';
import * as f from './test-support/fixtures.js';
import {
  flood,
  type Handler,
  startStreamingServer,
  startTestServer,
  TEST_ACCOUNT,
  TEST_KEY,
  type TestServer,
  trickle,
} from './test-support/server.js';

const servers: TestServer[] = [];
const clients: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A clock whose sleeps return at once and advance its time; records every sleep. */
function fakeClock(): Clock & { slept: number[] } {
  let t = 1_700_000_000_000;
  const slept: number[] = [];
  return {
    slept,
    now: () => t,
    sleep: async (ms) => {
      slept.push(ms);
      t += ms;
    },
  };
}

async function setup(handler: Handler, options: ClientOptions = {}) {
  const server = await startTestServer(handler);
  servers.push(server);
  const client = createClient({
    baseUrl: server.url,
    apiKey: TEST_KEY,
    accountId: TEST_ACCOUNT,
    env: {},
    ...options,
  });
  clients.push(client);
  return { server, client };
}

function groups(n: number, offset = 0) {
  return Array.from({ length: n }, (_, i) => ({
    ...f.checkGroup,
    id: offset + i + 1,
    name: `g${offset + i + 1}`,
  }));
}

describe('auth and configuration', () => {
  it('sends bearer key, account header and user agent', async () => {
    const { server, client } = await setup(() => ({ json: f.checkGroup }));
    await client.checkGroups.get(45);
    const headers = server.requests[0]!.headers;
    expect(headers.authorization).toBe(`Bearer ${TEST_KEY}`);
    expect(headers['x-monitor-account']).toBe(TEST_ACCOUNT);
    expect(headers['user-agent']).toMatch(/^monitor\/\d+\.\d+\.\d+/);
  });

  it('reads MONITOR_* variables by default', async () => {
    const server = await startTestServer(() => ({ json: f.checkGroup }));
    servers.push(server);
    const client = createClient({
      env: { MONITOR_API_KEY: TEST_KEY, MONITOR_ACCOUNT_ID: TEST_ACCOUNT, MONITOR_BASE_URL: server.url },
    });
    clients.push(client);
    await client.checkGroups.get(45);
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
  });

  it.each([
    ['MONITOR_API_KEY', { MONITOR_ACCOUNT_ID: TEST_ACCOUNT, MONITOR_BASE_URL: 'http://127.0.0.1:1' }],
    ['MONITOR_ACCOUNT_ID', { MONITOR_API_KEY: TEST_KEY, MONITOR_BASE_URL: 'http://127.0.0.1:1' }],
    ['MONITOR_BASE_URL', { MONITOR_API_KEY: TEST_KEY, MONITOR_ACCOUNT_ID: TEST_ACCOUNT }],
  ])('names a missing %s without sending anything', async (variable, env) => {
    const server = await startTestServer(() => ({ json: {} }));
    servers.push(server);
    let error: unknown;
    try {
      createClient({ env });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(variable);
    expect((error as ConfigError).hint).toContain(variable);
    expect(server.requests).toHaveLength(0);
  });

  it('rejects an account id that is not a UUID and a base URL that is not a URL', () => {
    expect(() =>
      createClient({
        env: { MONITOR_API_KEY: 'k', MONITOR_ACCOUNT_ID: 'acme', MONITOR_BASE_URL: 'http://x' },
      }),
    ).toThrow(/MONITOR_ACCOUNT_ID is not a UUID/);
    expect(() =>
      createClient({
        env: { MONITOR_API_KEY: 'k', MONITOR_ACCOUNT_ID: TEST_ACCOUNT, MONITOR_BASE_URL: 'not a url' },
      }),
    ).toThrow(/MONITOR_BASE_URL is not a URL/);
  });
});

describe('pagination', () => {
  /** Serves `items` page by page like the service, optionally with Content-Range. */
  function pagedHandler(items: unknown[], contentRange: boolean): Handler {
    return (req) => {
      const limit = Number(req.query.get('limit') ?? 10);
      const page = Math.max(1, Number(req.query.get('page') ?? 1));
      const start = (page - 1) * limit;
      const slice = items.slice(start, start + limit);
      const range =
        slice.length === 0 ? `*/${items.length}` : `${start}-${start + slice.length - 1}/${items.length}`;
      const headers: Record<string, string> = contentRange ? { 'content-range': range } : {};
      return { json: slice, headers };
    };
  }

  it('walks page-based lists with limit=100 until the Content-Range total', async () => {
    const { server, client } = await setup(pagedHandler(groups(250), true));
    const all = await collect(client.checkGroups.all());
    expect(all.map((g) => g.id)).toEqual(groups(250).map((g) => g.id));
    // Pages 2 and 3 are asked for together, once page 1 has told the total: in either order.
    const asked = server.requests.map((r) => [r.query.get('page'), r.query.get('limit')]);
    expect(asked[0]).toEqual(['1', '100']);
    expect(asked.slice(1).sort()).toEqual([
      ['2', '100'],
      ['3', '100'],
    ]);
  });

  it('stops after exactly 100 items when Content-Range says so', async () => {
    const { server, client } = await setup(pagedHandler(groups(100), true));
    expect(await collect(client.checkGroups.all())).toHaveLength(100);
    expect(server.requests).toHaveLength(1);
  });

  it('asks once more after a full page without Content-Range and stops on the empty page', async () => {
    const { server, client } = await setup(pagedHandler(groups(100), false));
    expect(await collect(client.checkGroups.all())).toHaveLength(100);
    expect(server.requests).toHaveLength(2);
  });

  it('handles an empty page-based list', async () => {
    const { server, client } = await setup(pagedHandler([], true));
    expect(await collect(client.alertChannels.all())).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('follows nextId through cursor-based lists', async () => {
    const services = Array.from({ length: 230 }, (_, i) => ({ ...f.service, id: `svc-${i}`, name: `s${i}` }));
    const { server, client } = await setup((req) => {
      const limit = Number(req.query.get('limit'));
      const start = req.query.has('nextId') ? Number(req.query.get('nextId')!.slice(2)) : 0;
      const entries = services.slice(start, start + limit);
      const next = start + limit < services.length ? `c-${start + limit}` : null;
      return { json: { length: entries.length, entries, nextId: next } };
    });
    const all = await collect(client.statusPageServices.all());
    expect(all.map((s) => s.id)).toEqual(services.map((s) => s.id));
    expect(server.requests.map((r) => r.query.get('nextId'))).toEqual([null, 'c-100', 'c-200']);
  });

  it('reads the status page services in one answer, as the service gives them with paginated=false', async () => {
    const services = Array.from({ length: 230 }, (_, i) => ({ ...f.service, id: `svc-${i}`, name: `s${i}` }));
    const { server, client } = await setup((req) => {
      const all = req.query.get('paginated') === 'false';
      const entries = all ? services : services.slice(0, Number(req.query.get('limit')));
      return { json: { length: entries.length, entries, nextId: all ? null : 'c-100' } };
    });
    let items = 0;
    for await (const page of client.managed('StatusPageService').pages()) items += page.items.length;
    expect(items).toBe(230);
    expect(server.requests.map((r) => [r.query.get('paginated'), r.query.get('limit')])).toEqual([
      ['false', null],
    ]);
  });

  it('handles an empty cursor-based list', async () => {
    const { server, client } = await setup(() => ({ json: { length: 0, entries: [], nextId: null } }));
    expect(await collect(client.statusPages.all())).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });
});

describe('rate limits and retries', () => {
  it('waits Retry-After (plus jitter) on 429, then succeeds', async () => {
    const clock = fakeClock();
    const { server, client } = await setup(
      (_req, i) =>
        i === 0
          ? { status: 429, headers: { 'retry-after': '3' }, json: { message: 'slow down' } }
          : { json: f.checkGroup },
      { clock, random: () => 0.5 },
    );
    await expect(client.checkGroups.get(45)).resolves.toMatchObject({ id: 45 });
    expect(server.requests).toHaveLength(2);
    const waited = clock.slept.reduce((a, b) => a + b, 0);
    expect(waited).toBeGreaterThanOrEqual(3000);
    expect(waited).toBeLessThanOrEqual(3000 * 1.2 + 100);
  });

  it('gives up after repeated 429s with a RateLimitedError and a hint', async () => {
    const clock = fakeClock();
    const { server, client } = await setup(
      () => ({ status: 429, headers: { 'retry-after': '1' }, json: { message: 'limit' } }),
      {
        clock,
        retry: { rateLimitRetries: 2 },
      },
    );
    const error = await client.checkGroups.get(45).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).hint).toMatch(/parallelism/);
    expect(server.requests).toHaveLength(3);
  });

  it('retries a 429 POST: the server did not process it', async () => {
    const clock = fakeClock();
    const { server, client } = await setup(
      (_req, i) =>
        i === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 201, json: f.checkGroup },
      { clock },
    );
    await expect(client.checkGroups.create({ name: 'payments' })).resolves.toMatchObject({ id: 45 });
    expect(server.requests).toHaveLength(2);
  });

  it('retries GET on 503 with backoff', async () => {
    const clock = fakeClock();
    const { server, client } = await setup(
      (_req, i) => (i < 2 ? { status: 503, json: { message: 'busy' } } : { json: f.checkGroup }),
      {
        clock,
      },
    );
    await expect(client.checkGroups.get(45)).resolves.toMatchObject({ id: 45 });
    expect(server.requests).toHaveLength(3);
    expect(clock.slept).toHaveLength(2);
  });

  it('retries a read answered with a plain 500, within the same bounds', async () => {
    const clock = fakeClock();
    const { server, client } = await setup(
      (_req, i) => (i < 2 ? { status: 500, json: { message: 'oops' } } : { json: f.checkGroup }),
      { clock },
    );
    await expect(client.checkGroups.get(45)).resolves.toMatchObject({ id: 45 });
    expect(server.requests).toHaveLength(3);
    const always = await setup(() => ({ status: 500, json: { message: 'oops' } }), {
      clock,
      retry: { attempts: 3 },
    });
    await expect(always.client.checkGroups.get(45)).rejects.toBeInstanceOf(ServerError);
    expect(always.server.requests).toHaveLength(3);
  });

  it('never sends a write answered with a plain 500 again: its outcome is unknown (AmbiguousWriteError)', async () => {
    for (const write of [
      (c: Awaited<ReturnType<typeof setup>>['client']) => c.checkGroups.update(45, { name: 'x' }),
      (c: Awaited<ReturnType<typeof setup>>['client']) => c.checkGroups.delete(45),
      (c: Awaited<ReturnType<typeof setup>>['client']) => c.checkGroups.create({ name: 'x' }),
    ]) {
      const { server, client } = await setup(() => ({ status: 500, json: { message: 'oops' } }), {
        clock: fakeClock(),
      });
      const error = await write(client).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AmbiguousWriteError);
      expect((error as AmbiguousWriteError).hint).toMatch(/read the resource back/);
      expect(server.requests).toHaveLength(1);
    }
  });

  it('managed(kind).get reads one resource back, and answers undefined for a 404', async () => {
    const { client } = await setup((req) =>
      req.path.endsWith('/45') ? { json: f.checkGroup } : { status: 404, json: { message: 'not found' } },
    );
    await expect(client.managed('CheckGroup').get(45)).resolves.toMatchObject({ id: 45 });
    await expect(client.managed('CheckGroup').get(46)).resolves.toBeUndefined();
  });

  it('tells onWait of every wait of 2 s or more, with why: the client rate limit, a Retry-After, a backoff', async () => {
    const clock = fakeClock();
    const waits: { ms: number; reason: string }[] = [];
    const limited = await setup(() => ({ json: f.checkGroup }), {
      clock,
      rateLimit: { limit: 1, windowMs: 5000 },
      onWait: (w) => waits.push(w),
    });
    await limited.client.checkGroups.get(45);
    await limited.client.checkGroups.get(45);
    expect(waits).toHaveLength(1);
    expect(waits[0]?.ms).toBeGreaterThanOrEqual(5000);
    expect(waits[0]?.reason).toBe('the client rate limit of 1 requests per 5 s (--rate-limit)');

    waits.length = 0;
    const told = await setup(
      (_req, i) => (i === 0 ? { status: 429, headers: { 'retry-after': '30' } } : { json: f.checkGroup }),
      { clock, onWait: (w) => waits.push(w) },
    );
    await told.client.checkGroups.get(45);
    expect(waits.map((w) => w.reason)).toEqual([
      'GET /v1/check-groups/{id} was rate limited (429, Retry-After 30 s)',
    ]);
    expect(waits[0]?.ms).toBeGreaterThanOrEqual(30_000);

    waits.length = 0;
    const busy = await setup((_req, i) => (i < 3 ? { status: 503 } : { json: f.checkGroup }), {
      clock,
      random: () => 1,
      onWait: (w) => waits.push(w),
    });
    await busy.client.checkGroups.get(45);
    // Backoffs of 250, 500 and 1000 ms: too short to tell anyone about.
    expect(waits).toEqual([]);
  });

  it('stops retrying after the configured attempts with a ServerError', async () => {
    const clock = fakeClock();
    const { server, client } = await setup(() => ({ status: 502, raw: '<html>bad gateway</html>' }), {
      clock,
      retry: { attempts: 3 },
    });
    const error = await client.dashboards.get('d').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).status).toBe(502);
    expect(server.requests).toHaveLength(3);
  });

  it('retries GET and PUT and DELETE when the connection is reset', async () => {
    const clock = fakeClock();
    const { server, client } = await setup((_req, i) => (i % 2 === 0 ? { destroy: true } : { status: 204 }), {
      clock,
    });
    await client.checkGroups.delete(45);
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry a POST the server read: AmbiguousWriteError', async () => {
    const clock = fakeClock();
    const { server, client } = await setup(() => ({ destroy: true }), { clock });
    const error = await client.checkGroups.create({ name: 'payments' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AmbiguousWriteError);
    expect((error as AmbiguousWriteError).code).toBe('ambiguous_write');
    expect((error as AmbiguousWriteError).hint).toMatch(/read the resource back/);
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry a POST answered 503: AmbiguousWriteError', async () => {
    const { server, client } = await setup(() => ({ status: 503 }), { clock: fakeClock() });
    await expect(client.checkGroups.create({ name: 'payments' })).rejects.toBeInstanceOf(AmbiguousWriteError);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a POST whose connection was refused, once the server is up', async () => {
    const server = await startTestServerOn(0);
    const refusals = { left: 2 };
    const client = createClient({
      baseUrl: server.url,
      apiKey: TEST_KEY,
      accountId: TEST_ACCOUNT,
      env: {},
      clock: fakeClock(),
      dispatcher: refusingAgent(refusals),
    });
    clients.push(client);
    await expect(client.checkGroups.create({ name: 'payments' })).resolves.toMatchObject({ id: 45 });
    expect(refusals.left).toBe(0);
    expect(server.requests).toHaveLength(1);
  });

  it('reports a refused connection as a NetworkError that never reached the server', async () => {
    const client = createClient({
      baseUrl: 'http://127.0.0.1:9',
      dispatcher: refusingAgent({ left: Number.POSITIVE_INFINITY }),
      apiKey: TEST_KEY,
      accountId: TEST_ACCOUNT,
      env: {},
      clock: fakeClock(),
      retry: { attempts: 2 },
    });
    clients.push(client);
    const error = await client.checkGroups.get(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).reachedServer).toBe(false);
    expect((error as NetworkError).message).toContain('ECONNREFUSED');
    expect((error as NetworkError).hint).toMatch(/MONITOR_BASE_URL/);
  });
});

/**
 * A real undici Agent whose connector refuses the first `left` connections (ECONNREFUSED, as from
 * a port nobody listens on), then connects: a refusal without racing other processes for a port.
 */
function refusingAgent(refusals: { left: number }): Agent {
  const connect = buildConnector({});
  return new Agent({
    connect: (options, callback) => {
      if (refusals.left > 0) {
        refusals.left--;
        const error = Object.assign(new Error(`connect ECONNREFUSED ${options.hostname}:${options.port}`), {
          code: 'ECONNREFUSED',
        });
        callback(error, null);
        return;
      }
      connect(options, callback);
    },
  });
}

async function startTestServerOn(port: number): Promise<TestServer> {
  const server = await startTestServer(() => ({ status: 201, json: f.checkGroup }), port);
  servers.push(server);
  return server;
}

describe('known responses', () => {
  /** A store of known bodies that records what the client asked of it. */
  function knownStore() {
    const keys = new Set<string>();
    const calls: string[] = [];
    return {
      keys,
      calls,
      keyOf: (endpoint: string, text: string) => {
        calls.push(`keyOf ${endpoint}`);
        return `${endpoint}|${text}`;
      },
      has: (key: string) => {
        calls.push('has');
        return keys.has(key);
      },
      add: (key: string) => {
        calls.push('add');
        keys.add(key);
      },
    };
  }

  it('checks a body once, keeps it, and uses it unchecked when it comes back the same', async () => {
    const store = knownStore();
    let body: unknown = [f.checkGroup];
    const { client } = await setup(
      (req) => ({ json: req.path === '/v1/check-groups' ? body : f.checkGroup }),
      { knownResponses: store },
    );
    await client.checkGroups.list();
    expect(store.calls).toEqual(['keyOf GET /v1/check-groups', 'has', 'add']);
    expect(store.keys.size).toBe(1);

    store.calls.length = 0;
    expect((await client.checkGroups.list()).items).toEqual([f.checkGroup]);
    expect(store.calls).toEqual(['keyOf GET /v1/check-groups', 'has']);

    // A write's answer, or a single resource's, is new each time: checked, never kept.
    store.calls.length = 0;
    await client.checkGroups.get(45);
    expect(store.calls).toEqual([]);

    // Another body is checked, and one that breaks the contract is refused and never kept.
    body = [{ ...f.checkGroup, name: 7 }];
    const error = await client.checkGroups.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractError);
    expect(store.keys.size).toBe(1);
  });

  it('hands back the body as the service sent it, checked or known: the same keys in the same order', async () => {
    const { apiCheckDefaults, ...rest } = f.checkGroup as Record<string, unknown>;
    const sent = { zFirst: 'unknown field', apiCheckDefaults, ...rest };
    const store = knownStore();
    const { client } = await setup(() => ({ json: [sent] }), { knownResponses: store });
    const checked = (await client.checkGroups.list()).items[0];
    const known = (await client.checkGroups.list()).items[0];
    expect(store.calls.filter((c) => c === 'add')).toHaveLength(1);
    expect(Object.keys(checked as object)).toEqual(Object.keys(sent));
    expect(known).toEqual(checked);
    expect(Object.keys(known as object)).toEqual(Object.keys(sent));
  });

  it('checks a body with a __proto__ key every time (the check drops it), and keeps none', async () => {
    const store = knownStore();
    const raw = JSON.stringify([f.checkGroup]).replace('{', '{"__proto__":{"polluted":true},');
    const { client } = await setup(() => ({ raw, headers: { 'content-type': 'application/json' } }), {
      knownResponses: store,
    });
    const [group] = (await client.checkGroups.list()).items;
    expect(store.calls).toEqual([]);
    expect(Object.hasOwn(group as object, '__proto__')).toBe(false);
    expect((group as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('still learns the secrets of a body it does not check, to keep them out of errors', async () => {
    const rawKey = 'dk_live_known_body_rawkey_77aa';
    const board = { ...f.dashboard, keys: [{ id: 'k', rawKey, maskedKey: 'dk_…77aa', created_at: f.NOW }] };
    const handler: Handler = (req) =>
      req.path === '/v1/dashboards'
        ? { json: [board] }
        : { status: 400, json: { statusCode: 400, error: 'Bad Request', message: `bad key ${rawKey}` } };
    const store = knownStore();
    await (await setup(handler, { knownResponses: store })).client.dashboards.list();
    // A new client (the next run): the body is known, so it is not checked, but it is read.
    const { client } = await setup(handler, { knownResponses: store });
    store.calls.length = 0;
    await client.dashboards.list();
    expect(store.calls).toEqual(['keyOf GET /v1/dashboards', 'has']);
    const error = (await client.checkGroups.get(45).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toContain('bad key');
    expect(error.message).not.toContain(rawKey);
  });
});

describe('errors', () => {
  it('decodes shape A bodies', async () => {
    const { client } = await setup(() => ({
      status: 404,
      json: { statusCode: 404, error: 'Not Found', message: 'Check group 45 not found' },
    }));
    const error = (await client.checkGroups.get(45).catch((e: unknown) => e)) as NotFoundError;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.code).toBe('not_found');
    expect(error.status).toBe(404);
    expect(error.method).toBe('GET');
    expect(error.path).toBe('/v1/check-groups/45');
    expect(error.serverMessage).toBe('Check group 45 not found');
    expect(error.message).toContain('Check group 45 not found');
  });

  it('a 404 from a list route means the base URL is wrong, not that something was deleted', async () => {
    const { client, server } = await setup(() => ({
      status: 404,
      headers: { 'content-type': 'text/html' },
      raw: '<h1>Not Found</h1>',
    }));
    const list = (await client.alertChannels.list().catch((e: unknown) => e)) as NotFoundError;
    expect(list).toBeInstanceOf(NotFoundError);
    expect(list.hint).toBe(
      `${server.url} has no /v1/alert-channels: the base URL is probably wrong (it should be the service's API root); check MONITOR_BASE_URL or the config's api.baseUrl, and see which one is used with monitor whoami`,
    );
    expect(list.hint).not.toContain('deleted');
    // A route with an id: the resource may well be gone.
    const one = (await client.checkGroups.get(45).catch((e: unknown) => e)) as NotFoundError;
    expect(one.hint).toContain('it may have been deleted outside monitor');
  });

  it('decodes shape B bodies', async () => {
    const { client } = await setup(() => ({
      status: 403,
      json: { message: 'No access to account', attributes: {} },
    }));
    const error = (await client.statusPages
      .deleteSubscription('sp', 'sub')
      .catch((e: unknown) => e)) as ForbiddenError;
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error.serverMessage).toBe('No access to account');
    expect(error.hint).toMatch(/MONITOR_ACCOUNT_ID/);
  });

  it('hints at MONITOR_API_KEY on 401', async () => {
    const { client } = await setup(() => ({
      status: 401,
      json: { statusCode: 401, error: 'Unauthorized', message: 'Bad key' },
    }));
    const error = (await client.checks.get(f.UUID1).catch((e: unknown) => e)) as UnauthorizedError;
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error.hint).toMatch(/MONITOR_API_KEY/);
  });

  it('turns a 400 into a ValidationError with the server message', async () => {
    const { client } = await setup(() => ({
      status: 400,
      json: {
        statusCode: 400,
        error: 'Bad Request',
        message: '"concurrency" must be greater than or equal to 1',
        validation: { source: 'payload', keys: ['concurrency'] },
      },
    }));
    const error = (await client.checkGroups
      .create({ name: 'x' }, {})
      .catch((e: unknown) => e)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toContain('"concurrency" must be greater than or equal to 1');
    expect(error.issues).toEqual([
      { path: 'concurrency', message: '"concurrency" must be greater than or equal to 1' },
    ]);
  });

  it('names the endpoint and the field path when a response breaks the contract', async () => {
    const { client } = await setup(() => ({ json: { ...f.checkGroup, apiCheckDefaults: { url: 42 } } }));
    const error = (await client.checkGroups.get(45).catch((e: unknown) => e)) as ContractError;
    expect(error).toBeInstanceOf(ContractError);
    expect(error.code).toBe('contract');
    expect(error.message).toContain('GET /v1/check-groups/{id}');
    expect(error.message).toContain('apiCheckDefaults.url');
    expect(error.issues[0]?.path).toBe('apiCheckDefaults.url');
  });

  it('names list element paths in contract errors', async () => {
    const { client } = await setup(() => ({ json: [f.checkGroup, { ...f.checkGroup, name: 7 }] }));
    const error = (await client.checkGroups.list().catch((e: unknown) => e)) as ContractError;
    expect(error.issues[0]?.path).toBe('[1].name');
  });

  it('reads what the contract allows: formats and ranges are not enforced on responses, types and required fields are', async () => {
    const { client } = await setup((req) => {
      if (req.path === '/v1/dashboards') return { json: [{ ...f.dashboard, id: 0 }] };
      if (req.path.startsWith('/v1/error-groups'))
        return { json: { ...f.errorGroup, rootCauseAnalyses: [{ analysis: null, provider: 'p' }] } };
      return { json: { ...f.checkResult, id: 'result-17', checkId: 'check-9' } };
    });
    expect((await client.dashboards.list()).items[0]?.id).toBe(0);
    expect((await client.errorGroups.get(f.UUID1)).rootCauseAnalyses).toHaveLength(1);
    expect(await client.checkResults.get(f.UUID1, f.UUID1)).toMatchObject({
      id: 'result-17',
      checkId: 'check-9',
    });
  });

  it('still refuses a response whose identity is missing or of the wrong type, and never retries it', async () => {
    const { server, client } = await setup(() => ({ json: [{ ...f.dashboard, id: 'zero' }] }));
    const error = (await client.dashboards.list().catch((e: unknown) => e)) as ContractError;
    expect(error).toBeInstanceOf(ContractError);
    expect(error.issues[0]?.path).toBe('[0].id');
    expect(server.requests).toHaveLength(1);
  });

  it('accepts a 204 with a stray Content-Length and no body', async () => {
    const { client } = await setup(() => ({ status: 204, headers: { 'content-length': '12' }, raw: '' }));
    await expect(client.checkGroups.delete(45)).resolves.toBeUndefined();
  });

  it('stops a cursor list that hands out the same cursor twice, with a clear error', async () => {
    const { server, client } = await setup((req) => ({
      json: {
        length: 1,
        entries: [{ ...f.service, id: `svc-${req.query.get('nextId') ?? 0}` }],
        nextId: req.query.has('nextId') ? 'c-1' : 'c-1',
      },
    }));
    const error = (await collect(client.statusPageServices.all()).catch((e: unknown) => e)) as ContractError;
    expect(error).toBeInstanceOf(ContractError);
    expect(error.message).toMatch(/returned the cursor "c-1" a second time after 2 pages/);
    expect(server.requests).toHaveLength(2);
  });

  it('tolerates unknown extra fields in responses', async () => {
    const { client } = await setup(() => ({ json: { ...f.checkGroup, brandNewField: { x: 1 } } }));
    await expect(client.checkGroups.get(45)).resolves.toMatchObject({ brandNewField: { x: 1 } });
  });

  it('reports a non-JSON success body clearly instead of crashing', async () => {
    const { client } = await setup(() => ({
      raw: '<html>login</html>',
      headers: { 'content-type': 'text/html' },
    }));
    const error = (await client.checkGroups.get(45).catch((e: unknown) => e)) as ContractError;
    expect(error).toBeInstanceOf(ContractError);
    expect(error.message).toMatch(/not JSON \(content-type text\/html\)/);
    expect(error.hint).toMatch(/MONITOR_BASE_URL/);
  });

  it('validates requests before sending them', async () => {
    const { server, client } = await setup(() => ({ json: {} }));
    const error = (await client.checkGroups
      // @ts-expect-error: an unknown location and concurrency 0 are rejected by the types too
      .create({ name: 'x', concurrency: 0, locations: ['mars-1'] })
      .catch((e: unknown) => e)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues.map((i) => i.path).sort()).toEqual(['body.concurrency', 'body.locations[0]']);
    expect(error.hint).toMatch(/not sent/);
    expect(server.requests).toHaveLength(0);
  });
});

describe('secrets never leak', () => {
  const SECRET = 'canary-secret-value-8c1f';
  const RAW_KEY = 'dk_live_canary_rawkey_51d0';

  it('keeps the API key, secret variable values and raw keys out of errors and debug events', async () => {
    const events: (RequestEvent | ResponseEvent)[] = [];
    const echo = `bad key ${TEST_KEY}, bad value ${SECRET}, key ${RAW_KEY}`;
    const { client } = await setup(
      (req) => {
        if (req.path.startsWith('/v1/dashboards')) {
          return {
            status: 201,
            json: {
              ...f.dashboard,
              keys: [{ id: 'k', rawKey: RAW_KEY, maskedKey: 'dk_…51d0', created_at: f.NOW }],
            },
          };
        }
        return {
          status: 400,
          json: { statusCode: 400, error: 'Bad Request', message: echo, attributes: { echo } },
        };
      },
      { onRequest: (e) => events.push(e), onResponse: (e) => events.push(e) },
    );
    await client.dashboards.create({ header: 'x' });
    const errors: unknown[] = [];
    errors.push(
      await client.checkGroups
        .create({ name: 'g', environmentVariables: [{ key: 'TOKEN', value: SECRET, secret: true }] })
        .catch((e: unknown) => e),
    );
    errors.push(
      await client.checkGroups
        // client-side validation error of a body holding the secret
        .update(45, { name: '', environmentVariables: [{ key: 'TOKEN', value: SECRET, secret: true }] })
        .catch((e: unknown) => e),
    );
    errors.push(await client.checks.get(`${TEST_KEY}`).catch((e: unknown) => e));
    for (const error of errors) {
      expect(error).toBeInstanceOf(Error);
      const e = error as Error;
      const texts = [
        String(e),
        e.message,
        e.stack ?? '',
        JSON.stringify(e),
        JSON.stringify(Object.entries(e)),
      ];
      for (const text of texts) {
        expect(text).not.toContain(TEST_KEY);
        expect(text).not.toContain(SECRET);
        expect(text).not.toContain(RAW_KEY);
      }
    }
    const debug = JSON.stringify(events);
    expect(events.length).toBeGreaterThan(0);
    expect(debug).not.toContain(TEST_KEY);
    expect(debug).not.toContain(SECRET);
    expect(debug).not.toContain(RAW_KEY);
    expect(events.some((e) => 'status' in e && e.status === 400 && typeof e.durationMs === 'number')).toBe(
      true,
    );
  });
});

describe('agent health client', () => {
  it('reads readiness, liveness and health without auth', async () => {
    let shuttingDown = false;
    const server = await startTestServer((req) => ({
      status: req.path === '/-/readiness' && shuttingDown ? 503 : 200,
      raw: 'OK',
    }));
    servers.push(server);
    const agent = createAgentHealthClient({ baseUrl: server.url });
    clients.push(agent);
    expect(await agent.readiness()).toEqual({ status: 200, ok: true });
    expect(await agent.liveness()).toEqual({ status: 200, ok: true });
    expect(await agent.health()).toEqual({ status: 200, ok: true });
    shuttingDown = true;
    expect(await agent.readiness()).toEqual({ status: 503, ok: false });
    expect(server.requests.map((r) => r.path)).toEqual([
      '/-/readiness',
      '/-/liveness',
      '/health',
      '/-/readiness',
    ]);
    expect(server.requests.every((r) => r.headers.authorization === undefined)).toBe(true);
  });
});

describe('answers that stall, flood or redirect', () => {
  async function streaming(handler: Parameters<typeof startStreamingServer>[0], options: ClientOptions = {}) {
    const server = await startStreamingServer(handler);
    servers.push(server);
    const client = createClient({
      baseUrl: server.url,
      apiKey: TEST_KEY,
      accountId: TEST_ACCOUNT,
      env: {},
      clock: fakeClock(),
      ...options,
    });
    clients.push(client);
    return { server, client };
  }
  const json = (res: ServerResponse, headers: Record<string, string> = {}) =>
    res.writeHead(200, { 'content-type': 'application/json', ...headers });

  it('a body sent a byte at a time ends at the deadline for the whole answer, though no gap trips the idle timeout; a GET is tried again', async () => {
    // 40 bytes, one every 100 ms: 4 s for the whole, 100 ms between bytes (the idle timeout is 1 s).
    const { server, client } = await streaming(
      (_req, res) => {
        json(res);
        trickle(res, `[${' '.repeat(38)}]`, 100);
      },
      { timeouts: { headersMs: 1000, bodyMs: 1000, totalMs: 1000 }, retry: { attempts: 2 } },
    );
    const error = await client.alertChannels.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).phase).toBe('body');
    expect((error as TimeoutError).message).toMatch(
      /^GET \/v1\/alert-channels: no complete answer within 1000 ms \(status 200, \d+ bytes of the body so far\)$/,
    );
    expect((error as TimeoutError).hint).toMatch(/too slowly/);
    expect(server.requests).toHaveLength(2);
  });

  it('a write whose body trickles is not sent again when it is a POST (AmbiguousWriteError)', async () => {
    const { server, client } = await streaming(
      (_req, res) => {
        res.writeHead(201, { 'content-type': 'application/json' });
        trickle(res, JSON.stringify(f.checkGroup), 100);
      },
      { timeouts: { headersMs: 1000, bodyMs: 1000, totalMs: 500 } },
    );
    const error = await client.checkGroups.create({ name: 'payments' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AmbiguousWriteError);
    expect(((error as AmbiguousWriteError).cause as TimeoutError).message).toContain(
      'no complete answer within 500 ms',
    );
    expect(server.requests).toHaveLength(1);
  });

  it('the deadline ends an attempt still waiting for its connection (undici heeds an abort only once connected)', async () => {
    // A real Agent whose connector never answers: a host that drops every packet.
    const client = createClient({
      baseUrl: 'https://api.example.net',
      apiKey: TEST_KEY,
      accountId: TEST_ACCOUNT,
      env: {},
      clock: fakeClock(),
      retry: { attempts: 2 },
      timeouts: { totalMs: 300 },
      dispatcher: new Agent({ connect: () => {} }),
    });
    clients.push({ close: () => client.destroy() });
    const error = await client.alertChannels.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).message).toBe('GET /v1/alert-channels: no response headers within 300 ms');
    expect((error as TimeoutError).phase).toBe('headers');
  });

  it('a body that stops coming trips the idle timeout between chunks', async () => {
    const { client } = await streaming(
      (_req, res) => {
        json(res);
        res.write('[');
      },
      { timeouts: { bodyMs: 500, totalMs: 60_000 }, retry: { attempts: 1 } },
    );
    const error = await client.alertChannels.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).phase).toBe('body');
    expect((error as TimeoutError).message).toBe(
      'GET /v1/alert-channels: the response body stalled: nothing arrived for 500 ms',
    );
  });

  it('a body past the cap is not read further: a ResponseTooLargeError naming the route and the size, not tried again', async () => {
    // 32 MiB, four times the cap, as fast as the client takes it; no Content-Length.
    const sent = { bytes: 0 };
    const { server, client } = await streaming((_req, res) => {
      json(res);
      flood(res, 32 * 1024 * 1024, sent);
    });
    const error = await client.alertChannels.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    const tooLarge = error as ResponseTooLargeError;
    expect(tooLarge.code).toBe('response_too_large');
    expect(tooLarge.message).toBe(
      `GET /v1/alert-channels: the answer is larger than the 8 MiB the client reads: more than ${MAX_RESPONSE_BYTES} bytes had arrived when it stopped reading`,
    );
    expect(tooLarge.limit).toBe(MAX_RESPONSE_BYTES);
    expect(tooLarge.bytes).toBeGreaterThan(MAX_RESPONSE_BYTES);
    expect(tooLarge.status).toBe(200);
    expect(tooLarge.hint).toMatch(/check that the base URL is the service's API/);
    expect(server.requests).toHaveLength(1);
    // The connection was closed: the server could not send the rest.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent.bytes).toBeLessThan(32 * 1024 * 1024);
  });

  it('a Content-Length past the cap fails before a byte of the body is read', async () => {
    const { server, client } = await streaming(
      (_req, res) => {
        json(res, { 'content-length': String(300 * 1024 * 1024) });
        res.write('[');
      },
      { timeouts: { bodyMs: 1000 }, retry: { attempts: 1 } },
    );
    const error = await client.alertChannels.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as ResponseTooLargeError).message).toBe(
      'GET /v1/alert-channels: the answer is larger than the 8 MiB the client reads: it declares 314572800 bytes (Content-Length), nothing of it was read',
    );
    expect((error as ResponseTooLargeError).bytes).toBe(300 * 1024 * 1024);
    expect(server.requests).toHaveLength(1);
  });

  it('a create answered 201 with a body past the cap may have happened: AmbiguousWriteError, not sent again', async () => {
    const { server, client } = await streaming(
      (_req, res) => {
        res.writeHead(201, { 'content-type': 'application/json' });
        flood(res, 64 * 1024);
      },
      { maxResponseBytes: 16 * 1024 },
    );
    const error = await client.checkGroups.create({ name: 'payments' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AmbiguousWriteError);
    expect((error as AmbiguousWriteError).message).toContain('larger than the 16 KiB the client reads');
    expect((error as AmbiguousWriteError).cause).toBeInstanceOf(ResponseTooLargeError);
    expect(server.requests).toHaveLength(1);
  });

  it('a body within the cap that breaks the contract everywhere names its first problems, not millions', async () => {
    // `[{},{},…]`: zod alone made an issue per missing field of every element (4 MiB: 4.5 GB).
    const { client } = await streaming((_req, res) => {
      json(res);
      res.end(`[${Array.from({ length: 20_000 }, () => '{}').join(',')}]`);
    });
    const error = await client.alertChannels.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractError);
    expect((error as ContractError).issues.length).toBeLessThanOrEqual(20);
    expect((error as ContractError).message).toMatch(
      /^GET \/v1\/alert-channels returned a body that breaks the API contract: \[0\]\.id: Invalid input: expected number, received undefined; /,
    );
  });

  it('a redirect is not followed: the hint names the base URL it leads to', async () => {
    const { server } = await streaming((_req, res) => {
      res.writeHead(307, { location: 'https://api.example.net/api/v1/alert-channels?limit=100&page=1' });
      res.end();
    });
    const base = `${server.url}/api`;
    const redirected = createClient({ baseUrl: base, apiKey: TEST_KEY, accountId: TEST_ACCOUNT, env: {} });
    clients.push(redirected);
    const error = await redirected.alertChannels.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(307);
    expect((error as HttpError).message).toBe('GET /v1/alert-channels failed: 307');
    expect((error as HttpError).hint).toBe(
      `${base} redirects to https://api.example.net/api/v1/alert-channels (monitor does not follow redirects, so that the API key goes nowhere else); use the address it redirects to: set MONITOR_BASE_URL or the config's api.baseUrl to https://api.example.net/api`,
    );
    expect(server.requests).toHaveLength(1);
  });
});

describe('plain http', () => {
  /** An Agent that connects every request to `port` on loopback, whatever host the URL names. */
  function toLoopback(port: number): Agent {
    const connect = buildConnector({});
    return new Agent({
      connect: (options, callback) =>
        connect({ ...options, hostname: '127.0.0.1', port: String(port) }, callback),
    });
  }

  it('warns once per client that the API key travels in clear to a host that is not loopback, and sends all the same', async () => {
    const server = await startTestServer(() => ({ json: f.checkGroup }));
    servers.push(server);
    const warnings: string[] = [];
    const client = createClient({
      baseUrl: 'http://monitor-proxy.internal.example:8080/api',
      apiKey: TEST_KEY,
      accountId: TEST_ACCOUNT,
      env: {},
      dispatcher: toLoopback(Number(new URL(server.url).port)),
      onWarning: (message) => warnings.push(message),
    });
    clients.push(client);
    expect(warnings).toEqual([]);
    await client.checkGroups.get(45);
    await client.checkGroups.get(45);
    expect(warnings).toEqual([
      'the base URL http://monitor-proxy.internal.example:8080 is plain http to a host that is not loopback: the API key travels unencrypted to it and to anything on the way; use https, unless a proxy inside your network is meant to take it',
    ]);
    expect(warnings[0]).not.toContain(TEST_KEY);
    expect(server.requests).toHaveLength(2);
  });

  it('by default the warning is a process warning', async () => {
    const server = await startTestServer(() => ({ json: f.checkGroup }));
    servers.push(server);
    const seen: Error[] = [];
    const listener = (warning: Error) => seen.push(warning);
    process.on('warning', listener);
    try {
      const client = createClient({
        baseUrl: 'http://10.1.2.3:8080',
        apiKey: TEST_KEY,
        accountId: TEST_ACCOUNT,
        env: {},
        dispatcher: toLoopback(Number(new URL(server.url).port)),
      });
      clients.push(client);
      await client.checkGroups.get(45);
      await new Promise((resolve) => setImmediate(resolve));
      expect(seen.map((w) => (w as Error & { code?: string }).code)).toEqual(['MONITOR_PLAIN_HTTP']);
    } finally {
      process.off('warning', listener);
    }
  });

  it('says nothing for loopback, for https, or without an API key', async () => {
    const warnings: string[] = [];
    const onWarning = (message: string) => warnings.push(message);
    const { client } = await setup(() => ({ json: f.checkGroup }), { onWarning });
    await client.checkGroups.get(45);
    const secure = createClient({
      baseUrl: 'https://api.example.net',
      apiKey: TEST_KEY,
      accountId: TEST_ACCOUNT,
      env: {},
      onWarning,
      dispatcher: refusingAgent({ left: Number.POSITIVE_INFINITY }),
      clock: fakeClock(),
      retry: { attempts: 1 },
    });
    clients.push(secure);
    await secure.checkGroups.get(45).catch(() => {});
    const server = await startTestServer(() => ({ status: 200, raw: 'OK' }));
    servers.push(server);
    const agent = createAgentHealthClient({
      baseUrl: 'http://agent-host:8081',
      dispatcher: toLoopback(Number(new URL(server.url).port)),
    });
    clients.push(agent);
    expect(await agent.liveness()).toEqual({ status: 200, ok: true });
    expect(warnings).toEqual([]);
  });

  it.each([
    ['localhost', true],
    ['api.localhost', true],
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['[::1]', true],
    ['[::ffff:7f00:1]', true],
    ['LOCALHOST', true],
    ['10.0.0.5', false],
    ['0.0.0.0', false],
    ['[::ffff:a00:5]', false],
    ['localhost.example.com', false],
    ['127.0.0.1.nip.io', false],
  ])('%s is loopback: %s', (host, expected) => {
    expect(isLoopback(new URL(`http://${host}:1/`).hostname)).toBe(expected);
  });
});
