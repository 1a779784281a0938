import { type Client, createClient } from '@monitor/api';
import { DEV_ACCOUNT_ID, DEV_API_KEY, type RunningEmulator, startEmulator } from '@monitor/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { NoChecksError } from './errors.js';
import { checksOfGroups, isPassing, triggerChecks, waitForSessions } from './trigger.js';

/** The trigger and wait flow against the emulator on port 0: sessions really run and end. */

const IN_GROUP = ['0a000000-0000-4000-8000-000000000001', '0a000000-0000-4000-8000-000000000002'];
const ALONE = '0a000000-0000-4000-8000-000000000003';
const check = (id: string, name: string, groupId: number | null) => ({
  id,
  checkType: 'API',
  name,
  activated: true,
  muted: false,
  frequency: 5,
  locations: ['eu-west-1'],
  tags: ['prod'],
  groupId,
  request: { method: 'GET', url: 'https://api.example.com/health' },
});

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function account(): Promise<{ emulator: RunningEmulator; client: Client }> {
  const emulator = await startEmulator({
    port: 0,
    fixture: {
      checks: [
        check(IN_GROUP[0] as string, 'API', 1),
        check(IN_GROUP[1] as string, 'Login', 1),
        check(ALONE, 'Ping', null),
      ],
    },
    rateLimits: false,
    agentHealthPort: false,
  });
  const client = createClient({
    apiKey: DEV_API_KEY,
    accountId: DEV_ACCOUNT_ID,
    baseUrl: emulator.url,
    env: {},
  });
  open.push(emulator, client);
  return { emulator, client };
}

describe('triggerChecks and waitForSessions', () => {
  it('finds a group’s checks through the checks API, and refuses a group with none, naming it', async () => {
    const { client } = await account();
    const groups = await checksOfGroups(client, [1, 2]);
    expect(groups.get(1)?.sort()).toEqual([...IN_GROUP].sort());
    expect(groups.get(2)).toEqual([]);
    const error = await triggerChecks(client, { groupIds: [2] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoChecksError);
    expect((error as NoChecksError).message).toContain('check group 2 has no checks');
  });

  it('runs the selected checks and waits for each to end: one passes, one fails by rule', async () => {
    const { emulator, client } = await account();
    emulator.control.setOutcomeRules([
      { checkId: IN_GROUP[1] as string, outcome: 'FAILED', error: 'connect ETIMEDOUT' },
    ]);
    const sessions = await triggerChecks(client, { groupIds: [1] });
    expect(sessions.map((s) => s.checkId).sort()).toEqual([...IN_GROUP].sort());
    const finals: string[] = [];
    const outcome = await waitForSessions(
      client,
      sessions.map((s) => s.checkSessionId),
      { deadline: Date.now() + 60_000, onFinal: (s) => finals.push(s.checkSessionId) },
    );
    expect(outcome.running).toEqual([]);
    expect(outcome.interrupted).toBe(false);
    expect(finals.sort()).toEqual(sessions.map((s) => s.checkSessionId).sort());
    const passed = Object.fromEntries(outcome.finished.map((s) => [s.checkId, isPassing(s)]));
    expect(passed).toEqual({ [IN_GROUP[0] as string]: true, [IN_GROUP[1] as string]: false });
  });

  it('stops at the deadline and on abort, naming the sessions still running', async () => {
    const { client } = await account();
    const sessions = await triggerChecks(client, { checkIds: [ALONE] });
    const ids = sessions.map((s) => s.checkSessionId);
    const late = await waitForSessions(client, ids, { deadline: Date.now() - 1 });
    expect(late).toEqual({ finished: [], running: ids, interrupted: false });
    const abort = new AbortController();
    abort.abort();
    const stopped = await waitForSessions(client, ids, {
      deadline: Date.now() + 60_000,
      signal: abort.signal,
    });
    expect(stopped.running).toEqual(ids);
    expect(stopped.interrupted).toBe(true);
  });
});
