import { setTimeout as wait } from 'node:timers/promises';
import { type Answer, type Call, mustGet, noContent, ok, table, uuid } from '../context.js';
import { countErrors, errorOf, findErrorGroup } from '../error-occurrences.js';
import { keepNewest } from '../history.js';
import { runLocations, runOutcome } from '../outcomes.js';
import { HttpProblem, notFound } from '../problem.js';
import { hashString, seededRandom } from '../random.js';
import {
  ATTEMPT_MS,
  finalStatus,
  type LocationRun,
  planResults,
  type VisibleResult,
  viewSession,
} from '../sessions.js';
import type { AccountData, Row } from '../store.js';

export { ATTEMPT_MS, LOCATION_STAGGER_MS } from '../sessions.js';

export function renderSession(call: Call, session: Row): Row {
  const view = viewSession(session, call.emu.clock.now());
  const started = session.startedAtMs as number;
  return {
    checkSessionId: session.id,
    checkSessionLink: `${call.emu.url}/check-sessions/${String(session.id)}`,
    checkId: session.checkId,
    checkType: session.checkType,
    name: session.name,
    status: view.status,
    startedAt: new Date(started).toISOString(),
    stoppedAt: view.stoppedAt === null ? null : new Date(view.stoppedAt).toISOString(),
    timeElapsed: (view.stoppedAt ?? call.emu.clock.now()) - started,
    runLocations: session.runLocations,
    runSource: session.runSource,
    results: view.results.map((r) => ({
      checkResultId: r.checkResultId,
      checkResultLink: `${call.emu.url}/check-results/${String(session.checkId)}/${r.checkResultId}`,
      checkId: session.checkId,
      checkType: session.checkType,
      name: session.name,
      runLocation: r.runLocation,
      resultType: r.resultType,
      hasErrors: false,
      hasFailures: r.failed,
      isDegraded: r.degraded,
      aborted: r.cancelled,
      isCancelled: r.cancelled,
      responseTime: r.cancelled ? null : responseTime(r.checkResultId),
      startedAt: new Date(r.stoppedAtMs - ATTEMPT_MS).toISOString(),
      stoppedAt: new Date(r.stoppedAtMs).toISOString(),
    })),
  };
}

function responseTime(resultId: string): number {
  return Math.round(80 + seededRandom(hashString(resultId))() * 320);
}

function eligibleChecks(call: Call): Row[] {
  const target = (call.body?.target ?? {}) as { matchTags?: string[][]; checkId?: string[] };
  return Object.values(table(call, 'checks')).filter((c) => {
    if (target.checkId !== undefined) {
      if (!target.checkId.includes(c.id as string)) return false;
    } else if (c.activated === false) {
      return false;
    }
    if (c.checkType === 'HEARTBEAT') return false;
    if (target.matchTags !== undefined && target.matchTags.length > 0) {
      const tags = c.tags as string[];
      if (!target.matchTags.some((all) => all.every((t) => tags.includes(t)))) return false;
    }
    return true;
  });
}

/** A new session of `check`, each location ending as its rules say. */
function newSession(call: Call, check: Row, testSessionId: string, now: number): Row {
  const runs: LocationRun[] = runLocations(call.account, check).map((location) => ({
    location,
    ...runOutcome(call.account, check, location),
  }));
  return {
    id: uuid(),
    testSessionId,
    sequenceId: uuid(),
    checkId: check.id,
    checkType: check.checkType,
    name: check.name,
    runLocations: runs.map((r) => r.location),
    runSource: 'TRIGGER_API',
    outcome: finalStatus(runs),
    startedAtMs: now,
    cancelledAtMs: null,
    planned: planResults(runs),
  };
}

/** Add a session, keeping the newest `historySize`; a forgotten one leaves its test session too. */
function addSession(account: AccountData, session: Row, historySize: number): void {
  account.tables.checkSessions[session.id as string] = session;
  keepNewest(account.tables.checkSessions, session.id as string, historySize, (forgotten) => {
    const testSessions = account.tables.testSessions;
    const testSession = testSessions[forgotten.testSessionId as string];
    if (testSession === undefined) return;
    const left = (testSession.sessionIds as string[]).filter((id) => id !== forgotten.id);
    if (left.length === 0) delete testSessions[forgotten.testSessionId as string];
    else testSession.sessionIds = left;
  });
}

export const checkSessionHandlers = {
  'checkSessions.trigger': (call: Call): Answer => {
    const checks = eligibleChecks(call);
    if (checks.length === 0) throw new HttpProblem(404, 'No matching checks were found.');
    const now = call.emu.clock.now();
    countErrors(call.account, now);
    const testSessionId = uuid();
    const sessions = checks.map((check) => newSession(call, check, testSessionId, now));
    table(call, 'testSessions')[testSessionId] = { id: testSessionId, sessionIds: sessions.map((s) => s.id) };
    for (const session of sessions) {
      addSession(call.account, session, call.emu.historySize);
      if ((session.planned as { failed: boolean }[]).some((r) => r.failed))
        call.account.uncountedErrors.push(session.id as string);
    }
    return ok(
      {
        sessions: sessions.map((s) => {
          const r = renderSession(call, s);
          return {
            checkSessionId: r.checkSessionId,
            checkSessionLink: r.checkSessionLink,
            checkId: r.checkId,
            checkType: r.checkType,
            status: r.status,
            runSource: r.runSource,
            startedAt: r.startedAt,
            timeElapsed: 0,
            runLocations: r.runLocations,
            name: r.name,
            // The emulator's own additions, so a test session can be cancelled.
            testSessionId,
            sequenceId: s.sequenceId,
          };
        }),
      },
      201,
    );
  },

  'checkSessions.get': (call: Call): Answer =>
    ok(
      renderSession(call, mustGet(table(call, 'checkSessions'), call.params.checkSessionId, 'Check session')),
    ),

  'checkSessions.completion': async (call: Call): Promise<Answer> => {
    const session = table(call, 'checkSessions')[call.params.checkSessionId];
    if (session === undefined) throw new HttpProblem(404, 'No such check session.');
    const deadline = Date.now() + (call.query.maxWaitSeconds ?? 30) * 1000;
    for (;;) {
      if (viewSession(session, call.emu.clock.now()).final) return ok(renderSession(call, session));
      if (Date.now() >= deadline) {
        throw new HttpProblem(
          408,
          'Check session is still in progress, but maximum per-request wait time was exceeded. Please retry.',
          {},
          { 'retry-after': '1' },
        );
      }
      await wait(50);
    }
  },

  'checkResults.get': (call: Call): Answer => {
    const now = call.emu.clock.now();
    countErrors(call.account, now);
    for (const session of Object.values(table(call, 'checkSessions'))) {
      if (session.checkId !== call.params.checkId) continue;
      const result = viewSession(session, now).results.find(
        (r) => r.checkResultId === call.params.checkResultId,
      );
      if (result !== undefined) return ok(detailedResult(call, session, result));
    }
    throw notFound(`Check result ${call.params.checkResultId}`);
  },

  'testSessions.cancel': (call: Call): Answer => {
    const testSession = mustGet(table(call, 'testSessions'), call.params.testSessionId, 'Test session');
    const only = call.body?.sequenceId as string[] | undefined;
    const now = call.emu.clock.now();
    for (const id of testSession.sessionIds as string[]) {
      const session = table(call, 'checkSessions')[id];
      if (session === undefined || session.checkType !== 'PLAYWRIGHT') continue;
      if (only !== undefined && !only.includes(session.sequenceId as string)) continue;
      if (!viewSession(session, now).final) session.cancelledAtMs = now;
    }
    return noContent();
  },
};

/** The error group ids of a result: its group's, when it failed. */
function errorGroupIds(call: Call, session: Row, result: VisibleResult): string[] {
  if (!result.failed) return [];
  const group = findErrorGroup(call.account, session.checkId as string, errorOf(session, result));
  return group === undefined ? [] : [group.id as string];
}

function detailedResult(call: Call, session: Row, result: VisibleResult): Row {
  const type = session.checkType as string;
  const check = table(call, 'checks')[session.checkId as string];
  const failed = result.failed;
  const error = failed ? errorOf(session, result) : null;
  const perType = (kind: string) => (type === kind ? true : null);
  const stoppedAt = new Date(result.stoppedAtMs).toISOString();
  const time = result.cancelled ? null : responseTime(result.checkResultId);
  return {
    id: result.checkResultId,
    checkId: session.checkId,
    name: session.name,
    runLocation: result.runLocation,
    resultType: result.resultType,
    hasFailures: failed,
    hasErrors: false,
    isDegraded: result.degraded,
    overMaxResponseTime: false,
    isCancelled: result.cancelled,
    startedAt: new Date(result.stoppedAtMs - ATTEMPT_MS).toISOString(),
    stoppedAt,
    created_at: stoppedAt,
    responseTime: time,
    attempts: (session.planned as Row[]).filter((p) => p.runLocation === result.runLocation).length,
    sequenceId: session.sequenceId,
    errorGroupIds: errorGroupIds(call, session, result),
    apiCheckResult:
      perType('API') &&
      ({
        request: {
          method: 'GET',
          url: ((check?.request as Row | undefined)?.url as string) ?? 'https://example.com',
          headers: {},
        },
        response: {
          status: failed ? 500 : 200,
          body: failed ? '{"error":"upstream timeout"}' : '{"ok":true}',
          headers: { 'content-type': 'application/json' },
          timingPhases: { wait: 5, dns: 10, tcp: 15, firstByte: 60, download: 5, total: time },
        },
        assertions: [
          { source: 'STATUS_CODE', comparison: 'EQUALS', target: '200', actual: failed ? '500' : '200' },
        ],
        // A rule's own error is what the request ran into; the default one is the assertion above.
        requestError: result.error ?? null,
      } as Row | null),
    browserCheckResult: perType('BROWSER') && { errors: error === null ? [] : [error], jobLog: [] },
    multiStepCheckResult: perType('MULTI_STEP') && { errors: error === null ? [] : [error], jobLog: [] },
    playwrightCheckResult: perType('PLAYWRIGHT') && { errors: error === null ? [] : [error], jobLog: [] },
  };
}
