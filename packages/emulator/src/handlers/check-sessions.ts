import { type Answer, type Call, mustGet, noContent, ok, table, uuid } from '../context.js';
import { keepNewest } from '../history.js';
import { HttpProblem, notFound } from '../problem.js';
import { hashString, seededRandom } from '../random.js';
import type { AccountData, Row } from '../store.js';

/** A run attempt takes this long in emulator time; locations start this far apart. */
export const ATTEMPT_MS = 1000;
export const LOCATION_STAGGER_MS = 500;
/** Failed runs are retried this many times before the FINAL result. */
const FAILED_ATTEMPTS = 3;

interface PlannedResult {
  checkResultId: string;
  runLocation: string;
  resultType: 'FINAL' | 'ATTEMPT';
  endsAfterMs: number;
  failed: boolean;
  degraded: boolean;
}

/** The session's whole timeline, fixed when it is triggered; what is visible depends on the clock. */
function planResults(locations: string[], outcome: string): PlannedResult[] {
  const out: PlannedResult[] = [];
  locations.forEach((runLocation, i) => {
    const attempts = outcome === 'FAILED' ? FAILED_ATTEMPTS : 1;
    for (let k = 0; k < attempts; k++) {
      const final = k === attempts - 1;
      out.push({
        checkResultId: uuid(),
        runLocation,
        resultType: final ? 'FINAL' : 'ATTEMPT',
        endsAfterMs: ATTEMPT_MS * (k + 1) + LOCATION_STAGGER_MS * i,
        failed: outcome === 'FAILED',
        degraded: final && outcome === 'DEGRADED',
      });
    }
  });
  return out;
}

interface SessionView {
  status: string;
  final: boolean;
  stoppedAt: number | null;
  results: (PlannedResult & { cancelled: boolean; stoppedAtMs: number })[];
}

/** What a session looks like at `now`. */
export function viewSession(session: Row, now: number): SessionView {
  const started = session.startedAtMs as number;
  const planned = session.planned as PlannedResult[];
  const cancelledAt = session.cancelledAtMs as number | null;
  const elapsed = now - started;
  const cancelCut = cancelledAt === null ? Number.POSITIVE_INFINITY : cancelledAt - started;
  const visible = planned
    .filter((r) => r.endsAfterMs <= Math.min(elapsed, cancelCut))
    .map((r) => ({ ...r, cancelled: false, stoppedAtMs: started + r.endsAfterMs }));
  if (cancelledAt !== null && now >= cancelledAt) {
    const finishedLocations = new Set(
      visible.filter((r) => r.resultType === 'FINAL').map((r) => r.runLocation),
    );
    for (const location of session.runLocations as string[]) {
      if (finishedLocations.has(location)) continue;
      const final = planned.find((r) => r.runLocation === location && r.resultType === 'FINAL');
      if (final !== undefined)
        visible.push({ ...final, failed: false, degraded: false, cancelled: true, stoppedAtMs: cancelledAt });
    }
    return { status: 'CANCELLED', final: true, stoppedAt: cancelledAt, results: visible };
  }
  const finals = visible.filter((r) => r.resultType === 'FINAL');
  const allDone = finals.length === (session.runLocations as string[]).length;
  if (allDone) {
    const stoppedAt = Math.max(...visible.map((r) => r.stoppedAtMs));
    return { status: session.outcome as string, final: true, stoppedAt, results: visible };
  }
  let status = elapsed < LOCATION_STAGGER_MS ? 'STARTED' : 'PROGRESS';
  if (visible.some((r) => r.failed)) status = 'PROGRESS_FAILED';
  else if (visible.some((r) => r.degraded)) status = 'PROGRESS_DEGRADED';
  return { status, final: false, stoppedAt: null, results: visible };
}

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
    const testSessionId = uuid();
    const sessions = checks.map((check): Row => {
      const locations =
        (check.locations as string[]).length > 0 ? (check.locations as string[]) : ['eu-west-1'];
      const outcome = call.account.outcomes[check.id as string] ?? 'PASSED';
      return {
        id: uuid(),
        testSessionId,
        sequenceId: uuid(),
        checkId: check.id,
        checkType: check.checkType,
        name: check.name,
        runLocations: locations,
        runSource: 'TRIGGER_API',
        outcome,
        startedAtMs: now,
        cancelledAtMs: null,
        planned: planResults(locations, outcome),
      };
    });
    table(call, 'testSessions')[testSessionId] = { id: testSessionId, sessionIds: sessions.map((s) => s.id) };
    for (const session of sessions) addSession(call.account, session, call.emu.historySize);
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
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  },

  'checkResults.get': (call: Call): Answer => {
    const now = call.emu.clock.now();
    for (const session of Object.values(table(call, 'checkSessions'))) {
      if (session.checkId !== call.params.checkId) continue;
      const rendered = renderSession(call, session);
      const result = (rendered.results as Row[]).find((r) => r.checkResultId === call.params.checkResultId);
      if (result === undefined) continue;
      return ok(detailedResult(call, session, result, now));
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

function detailedResult(call: Call, session: Row, result: Row, _now: number): Row {
  const type = session.checkType as string;
  const check = table(call, 'checks')[session.checkId as string];
  const failed = result.hasFailures === true;
  const perType = (kind: string) => (type === kind ? true : null);
  return {
    id: result.checkResultId,
    checkId: session.checkId,
    name: session.name,
    runLocation: result.runLocation,
    resultType: result.resultType,
    hasFailures: failed,
    hasErrors: false,
    isDegraded: result.isDegraded,
    overMaxResponseTime: false,
    isCancelled: result.isCancelled,
    startedAt: result.startedAt,
    stoppedAt: result.stoppedAt,
    created_at: result.stoppedAt,
    responseTime: result.responseTime,
    attempts: (session.planned as Row[]).filter((p) => p.runLocation === result.runLocation).length,
    sequenceId: session.sequenceId,
    errorGroupIds: failed ? Object.keys(table(call, 'errorGroups')).slice(0, 1) : [],
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
          timingPhases: { wait: 5, dns: 10, tcp: 15, firstByte: 60, download: 5, total: result.responseTime },
        },
        assertions: [
          { source: 'STATUS_CODE', comparison: 'EQUALS', target: '200', actual: failed ? '500' : '200' },
        ],
        requestError: null,
      } as Row | null),
    browserCheckResult: perType('BROWSER') && {
      errors: failed ? ['Timeout waiting for selector'] : [],
      jobLog: [],
    },
    multiStepCheckResult: perType('MULTI_STEP') && { errors: failed ? ['Step 2 failed'] : [], jobLog: [] },
    playwrightCheckResult: perType('PLAYWRIGHT') && {
      errors: failed ? ['expect(page).toHaveTitle failed'] : [],
      jobLog: [],
    },
  };
}
