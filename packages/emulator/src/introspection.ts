import { z } from '@monitor/api/zod';
import type { AgentHealth } from './agent-health.js';
import { accountIdOf, type EmulatorControl, rcaDurationSchema } from './control.js';
import { faultConfigSchema } from './faults.js';
import { applyFixture, type Fixture, fixtureSchema } from './fixture.js';
import { OUTCOMES, outcomeRulesSchema } from './outcomes.js';
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
  outcomes: z.record(z.string(), z.enum(OUTCOMES)),
});
const outcomeRulesBody = z.strictObject({ accountId: z.string().optional(), rules: outcomeRulesSchema });
const accountQuery = z.strictObject({ accountId: z.string().optional() });
const rcaBody = z.strictObject({ durationMs: rcaDurationSchema });
const seedBody = z.strictObject({ accountId: z.string().optional(), fixture: fixtureSchema });

/** Rows kept per table, over all accounts: what the emulator holds. */
function rowCounts(app: App): Record<string, number> {
  const counts: Record<string, number> = Object.fromEntries(TABLES.map((t) => [t, 0]));
  for (const account of Object.values(app.state.store.data.accounts))
    for (const t of TABLES) counts[t] = (counts[t] ?? 0) + Object.keys(account.tables[t]).length;
  return counts;
}

/**
 * Routes for tests: the request log, clock, faults, outcomes and outcome rules, root cause
 * analysis timing, seeding, reset, and what the emulator holds.
 */
export function registerIntrospection(
  app: App,
  accounts: AccountConfig[],
  control: EmulatorControl,
  agent: () => AgentHealth | undefined,
): void {
  const { fastify, state } = app;
  const p = INTROSPECTION_PREFIX;
  const accountOf = (id: string | undefined) => {
    try {
      return accountIdOf(accounts, id);
    } catch {
      throw new HttpProblem(404, `Account ${id} not found`);
    }
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
    if ('advanceMs' in body) control.advanceClock(body.advanceMs);
    else state.clock.set(Date.parse(body.set));
    return { now: state.clock.nowIso(), epochMs: state.clock.now() };
  });
  fastify.get(`${p}/faults`, async () => app.faults.config);
  fastify.put(`${p}/faults`, async (req) => {
    control.setFaults(parseOr400(faultConfigSchema, req.body, 'payload'));
    return app.faults.config;
  });
  fastify.delete(`${p}/faults`, async (_req, reply) => {
    control.setFaults({});
    return reply.code(204).send();
  });
  fastify.put(`${p}/outcomes`, async (req) => {
    const body = parseOr400(outcomesBody, req.body, 'payload');
    const account = state.store.account(accountOf(body.accountId));
    Object.assign(account.outcomes, body.outcomes);
    state.store.save();
    return { outcomes: account.outcomes };
  });
  fastify.get(`${p}/outcome-rules`, async (req) => {
    const { accountId } = parseOr400(accountQuery, req.query, 'query');
    return { rules: control.outcomeRules(accountOf(accountId)) };
  });
  fastify.put(`${p}/outcome-rules`, async (req) => {
    const body = parseOr400(outcomeRulesBody, req.body, 'payload');
    return { rules: control.setOutcomeRules(body.rules, accountOf(body.accountId)) };
  });
  fastify.delete(`${p}/outcome-rules`, async (req, reply) => {
    const { accountId } = parseOr400(accountQuery, req.query, 'query');
    control.setOutcomeRules([], accountOf(accountId));
    return reply.code(204).send();
  });
  fastify.get(`${p}/root-cause-analyses`, async () => ({ durationMs: control.rcaDurationMs() }));
  fastify.put(`${p}/root-cause-analyses`, async (req) => {
    control.setRcaDurationMs(parseOr400(rcaBody, req.body, 'payload').durationMs);
    return { durationMs: control.rcaDurationMs() };
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
