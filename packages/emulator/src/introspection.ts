import { z } from '@monitor/api/zod';
import type { AgentHealth } from './agent-health.js';
import { faultConfigSchema } from './faults.js';
import { applyFixture, type Fixture, fixtureSchema } from './fixture.js';
import { HttpProblem } from './problem.js';
import type { AccountConfig, App } from './server.js';
import { TABLES } from './store.js';
import { parseOr400 } from './validation.js';

/** The prefix of the emulator's own routes; not part of the service API. */
export const INTROSPECTION_PREFIX = '/_emulator';

const clockBody = z.union([
  z.strictObject({ advanceMs: z.number().min(0) }),
  z.strictObject({ set: z.iso.datetime({ offset: true }) }),
]);
const outcomesBody = z.strictObject({
  accountId: z.string().optional(),
  outcomes: z.record(z.string(), z.enum(['PASSED', 'FAILED', 'DEGRADED'])),
});
const seedBody = z.strictObject({ accountId: z.string().optional(), fixture: fixtureSchema });

/** Rows kept per table, over all accounts: what the emulator holds. */
function rowCounts(app: App): Record<string, number> {
  const counts: Record<string, number> = Object.fromEntries(TABLES.map((t) => [t, 0]));
  for (const account of Object.values(app.state.store.data.accounts))
    for (const t of TABLES) counts[t] = (counts[t] ?? 0) + Object.keys(account.tables[t]).length;
  return counts;
}

/** Routes for tests: the request log, what the emulator holds, clock control, faults, outcomes, seeding, reset. */
export function registerIntrospection(
  app: App,
  accounts: AccountConfig[],
  agent: () => AgentHealth | undefined,
): void {
  const { fastify, state } = app;
  const p = INTROSPECTION_PREFIX;
  const accountOf = (id: string | undefined) => {
    const account = id === undefined ? accounts[0] : accounts.find((a) => a.id === id);
    if (account === undefined) throw new HttpProblem(404, `Account ${id} not found`);
    return account.id;
  };

  fastify.get(`${p}/requests`, async () => ({
    requests: app.requests.entries(),
    total: app.requests.total,
    capacity: app.requests.capacity,
  }));
  fastify.delete(`${p}/requests`, async (_req, reply) => {
    app.requests.clear();
    return reply.code(204).send();
  });
  fastify.get(`${p}/stats`, async () => ({
    requests: { kept: app.requests.kept, total: app.requests.total, capacity: app.requests.capacity },
    rows: rowCounts(app),
    memory: process.memoryUsage(),
  }));
  fastify.post(`${p}/reset`, async (_req, reply) => {
    app.reset();
    return reply.code(204).send();
  });
  fastify.get(`${p}/clock`, async () => ({
    now: state.clock.nowIso(),
    epochMs: state.clock.now(),
    mode: state.clock.mode,
  }));
  fastify.post(`${p}/clock`, async (req) => {
    const body = parseOr400(clockBody, req.body, 'payload');
    if ('advanceMs' in body) state.clock.advance(body.advanceMs);
    else state.clock.set(Date.parse(body.set));
    return { now: state.clock.nowIso(), epochMs: state.clock.now() };
  });
  fastify.get(`${p}/faults`, async () => app.faults.config);
  fastify.put(`${p}/faults`, async (req) => {
    app.faults.configure(parseOr400(faultConfigSchema, req.body, 'payload'));
    return app.faults.config;
  });
  fastify.delete(`${p}/faults`, async (_req, reply) => {
    app.faults.configure({});
    return reply.code(204).send();
  });
  fastify.put(`${p}/outcomes`, async (req) => {
    const body = parseOr400(outcomesBody, req.body, 'payload');
    const account = state.store.account(accountOf(body.accountId));
    Object.assign(account.outcomes, body.outcomes);
    state.store.save();
    return { outcomes: account.outcomes };
  });
  fastify.post(`${p}/seed`, async (req, reply) => {
    const body = parseOr400(seedBody, req.body, 'payload');
    const id = accountOf(body.accountId);
    applyFixture(state.store.account(id), id, body.fixture as Fixture, state.clock);
    state.store.save();
    return reply.code(204).send();
  });
  fastify.get(`${p}/accounts`, async () => ({ accounts }));
  fastify.post(`${p}/agent`, async (req) => {
    const body = parseOr400(z.strictObject({ ready: z.boolean() }), req.body, 'payload');
    const health = agent();
    if (health === undefined) throw new HttpProblem(404, 'the agent health server is not running');
    health.ready = body.ready;
    return { ready: health.ready };
  });
}
