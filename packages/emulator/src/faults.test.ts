import { readFileSync } from 'node:fs';
import { AmbiguousWriteError, collect, NetworkError, ServerError } from '@monitor/api';
import { describe, expect, it } from 'vitest';
import { Faults, faultConfigSchema } from './faults.js';
import { harness } from './test-support/harness.js';

/** A clock whose sleeps return at once and move its time on, so retries do not slow the tests. */
let skipped = 0;
const instantClock = {
  now: () => Date.now() + skipped,
  sleep: async (ms: number) => {
    skipped += ms;
  },
};

describe('fault injection', () => {
  it('adds latency before processing: a fixed value, or drawn from a range by the seed', async () => {
    const h = await harness({ faults: { latencyMs: 120 } });
    await h.client.checkGroups.list();
    expect(h.emulator.requests.map((r) => r.fault)).toEqual(['latency 120 ms']);
    const range = new Faults();
    range.configure({ seed: 5, latencyMs: [10, 50] });
    const drawn = Array.from({ length: 20 }, () => range.latency());
    expect(drawn.every((ms) => ms >= 10 && ms <= 50)).toBe(true);
    expect(new Set(drawn).size).toBeGreaterThan(1);
    range.configure({ seed: 5, latencyMs: [10, 50] });
    expect(Array.from({ length: 20 }, () => range.latency())).toEqual(drawn);
  });

  it('answers a share of requests 5xx, deterministically from the seed', async () => {
    const statuses = async () => {
      const h = await harness({ faults: { seed: 7, serverErrorRate: 0.3 } });
      const out: number[] = [];
      for (let i = 0; i < 30; i++) out.push((await h.raw('GET', '/v1/check-groups')).status);
      return out;
    };
    const first = await statuses();
    expect(first.filter((s) => s === 503).length).toBeGreaterThan(3);
    expect(first.filter((s) => s === 503).length).toBeLessThan(20);
    expect(await statuses()).toEqual(first);
    const h = await harness({ faults: { serverErrorRate: 1, serverErrorStatus: 500 } });
    const client = h.clientFor({ clock: instantClock });
    await expect(client.checkGroups.list()).rejects.toBeInstanceOf(ServerError);
  });

  it('answers a share of requests 429 with Retry-After, which the client waits out', async () => {
    const h = await harness({ faults: { seed: 3, rateLimitRate: 0.5 } });
    const raw = [];
    for (let i = 0; i < 10; i++) raw.push(await h.raw('GET', '/v1/check-groups'));
    const limited = raw.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]?.headers.get('retry-after')).toBe('1');
    const client = h.clientFor({ clock: instantClock });
    expect((await collect(client.checkGroups.all())).length).toBe(0);
  });

  it('resets connections, which the client retries for reads', async () => {
    const h = await harness({ faults: { seed: 1, resetRate: 0.4 } });
    const client = h.clientFor({ clock: instantClock, retry: { attempts: 10 } });
    for (let i = 0; i < 5; i++) await client.checkGroups.list();
    const resets = h.emulator.requests.filter((r) => r.fault === 'reset');
    expect(resets.length).toBeGreaterThan(0);
    const noRetry = h.clientFor({ clock: instantClock, retry: { attempts: 1 } });
    await h.raw('PUT', '/_emulator/faults', { body: { resetRate: 1 } });
    await expect(noRetry.checkGroups.list()).rejects.toBeInstanceOf(NetworkError);
  });

  it('processes the Nth matching request, then drops its connection: the write really happened', async () => {
    const h = await harness({
      faults: { dropAfterProcessing: [{ method: 'POST', path: '/v2/check-groups', nth: 2 }] },
    });
    await h.client.checkGroups.create({ name: 'first' });
    const error = await h.client.checkGroups.create({ name: 'second' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AmbiguousWriteError);
    await h.client.checkGroups.create({ name: 'third' });
    const names = (await collect(h.client.checkGroups.all())).map((g) => g.name);
    expect(names).toEqual(['first', 'second', 'third']);
    expect(h.emulator.requests.filter((r) => r.fault === 'dropped after processing')).toHaveLength(1);
  });

  it('processes the Nth matching request, then holds its answer: the write is visible before the answer', async () => {
    const h = await harness({
      faults: { holdAfterProcessing: [{ method: 'POST', path: '/v2/check-groups', nth: 1, ms: 400 }] },
    });
    let answered = false;
    const created = h.client.checkGroups.create({ name: 'held' }).then((g) => {
      answered = true;
      return g;
    });
    let seen: string[] = [];
    while (seen.length === 0) {
      seen = (await collect(h.client.checkGroups.all())).map((g) => g.name).filter((n) => n === 'held');
    }
    expect(answered).toBe(false);
    expect((await created).name).toBe('held');
    expect(h.emulator.requests.find((r) => r.method === 'POST')?.fault).toBe('held 400ms after processing');
    const bad = await h.raw('PUT', '/_emulator/faults', {
      body: { holdAfterProcessing: [{ method: 'POST' }] },
    });
    expect(bad.status).toBe(400);
  });

  it('refuses the Nth matching request with a 400 that quotes its body, and processes the next', async () => {
    const h = await harness({
      faults: { echoBodyInBadRequest: [{ method: 'POST', path: '/v2/check-groups', nth: 1 }] },
    });
    const refused = await h.raw('POST', '/v2/check-groups', { body: { name: 'say "hi"' } });
    expect(refused.status).toBe(400);
    expect((refused.json as { message: string }).message).toBe(
      'Invalid request payload: {"name":"say \\"hi\\""}',
    );
    expect((await collect(h.client.checkGroups.all())).map((g) => g.name)).toEqual([]);
    expect((await h.raw('POST', '/v2/check-groups', { body: { name: 'say "hi"' } })).status).toBe(201);
  });

  it('every fault docs/emulator.md documents can be set over HTTP, with the value it shows', async () => {
    const docs = readFileSync(new URL('../../../docs/emulator.md', import.meta.url), 'utf8');
    const block = /## Faults[\s\S]*?```json\n([\s\S]*?)```/.exec(docs)?.[1] ?? '{}';
    const documented = JSON.parse(block) as Record<string, unknown>;
    // The docs show every fault the one definition has, and no other.
    expect(Object.keys(documented).sort()).toEqual(Object.keys(faultConfigSchema.shape).sort());
    const h = await harness();
    for (const [kind, value] of Object.entries(documented)) {
      const set = await h.raw('PUT', '/_emulator/faults', { body: { [kind]: value } });
      expect({ kind, status: set.status, json: set.json }).toEqual({
        kind,
        status: 200,
        json: { [kind]: value },
      });
      expect((await h.raw('GET', '/_emulator/faults')).json).toEqual({ [kind]: value });
    }
    await h.raw('PUT', '/_emulator/faults', {
      body: { echoBodyInBadRequest: [{ method: 'POST', path: '/v2/check-groups', nth: 1 }] },
    });
    const refused = await h.raw('POST', '/v2/check-groups', { body: { name: 'echoed' } });
    expect(refused).toMatchObject({
      status: 400,
      json: { message: 'Invalid request payload: {"name":"echoed"}' },
    });
  });

  it('drops every Nth matching request when asked, and faults can be changed at run time', async () => {
    const h = await harness();
    const set = await h.raw('PUT', '/_emulator/faults', {
      body: { dropAfterProcessing: [{ method: 'POST', every: 2 }] },
    });
    expect(set.status).toBe(200);
    const results = [];
    for (let i = 0; i < 4; i++) {
      results.push(
        await h.client.statusPageServices.create({ name: `s${i}` }).then(
          () => 'ok',
          (e: unknown) => (e as Error).name,
        ),
      );
    }
    expect(results).toEqual(['ok', 'AmbiguousWriteError', 'ok', 'AmbiguousWriteError']);
    expect(
      (await collect(h.client.statusPageServices.all())).filter((s) => s.name.startsWith('s')),
    ).toHaveLength(4);
    const bad = await h.raw('PUT', '/_emulator/faults', { body: { serverErrorRate: 2 } });
    expect(bad.status).toBe(400);
  });
});

describe('introspection', () => {
  it('logs method, path and status of every request, and resets to the fixture', async () => {
    const h = await harness();
    await h.client.checkGroups.create({ name: 'x' });
    await h.client.checkGroups.get(999).catch(() => undefined);
    const log = (await h.raw('GET', '/_emulator/requests')).json as {
      requests: { method: string; path: string; status: number }[];
    };
    expect(log.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'POST /v2/check-groups 201',
      'GET /v1/check-groups/999 404',
    ]);
    expect((await h.raw('POST', '/_emulator/reset')).status).toBe(204);
    expect((await h.client.checkGroups.list()).items).toEqual([]);
    expect((await h.client.alertChannels.list()).items).toHaveLength(3);
  });
});
