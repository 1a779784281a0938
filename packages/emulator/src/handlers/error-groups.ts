import { type Answer, type Call, mustGet, ok, pageAnswer, table, uuid } from '../context.js';
import { countErrors } from '../error-occurrences.js';
import { keepNewest } from '../history.js';
import type { Row } from '../store.js';

function completedAnalysis(rca: Row): Row {
  return {
    classification: 'application-error',
    userImpact: 'Users hitting the failing step see an error page until the fix is deployed.',
    rootCause: `The failure "${String(rca.errorMessage)}" starts at the step that waits for the response; the upstream call times out.`,
    codeFix: 'Raise the client timeout of the upstream call and retry once on a timeout.',
    evidence: [
      {
        description: 'The error first appears in the trace right after the upstream request is sent.',
        artifacts: [
          { name: 'trace.zip', type: 'trace' },
          { name: 'screenshot.png', type: 'screenshot' },
        ],
      },
    ],
    referenceLinks: [
      { url: 'https://developer.mozilla.org/en-US/docs/Web/HTTP/Status/504', title: '504 Gateway Timeout' },
    ],
  };
}

/** An analysis whose `readyAt` is null never completes. */
function isDone(call: Call, rca: Row): boolean {
  return rca.readyAt !== null && call.emu.clock.now() >= (rca.readyAt as number);
}

function generate(call: Call, kind: 'errorGroups' | 'testSessionErrorGroups', groupId: string): Answer {
  const group = mustGet(
    table(call, kind),
    groupId,
    kind === 'errorGroups' ? 'Error group' : 'Test session error group',
  );
  const id = uuid();
  const now = call.emu.clock.now();
  const duration = call.emu.rcaDurationMs;
  const checkId = (group.checkId as string | undefined) ?? null;
  const rca: Row = {
    id,
    groupKind: kind,
    groupId,
    checkId,
    checkType: checkId === null ? null : (table(call, 'checks')[checkId]?.checkType ?? null),
    errorMessage: group.cleanedErrorMessage,
    userContext: call.body?.userContext ?? '',
    startedAt: now,
    readyAt: duration === null ? null : now + duration,
  };
  table(call, 'rootCauseAnalyses')[id] = rca;
  keepNewest(table(call, 'rootCauseAnalyses'), id, call.emu.historySize);
  return ok({ id, status: 'PENDING' }, 202);
}

function renderRca(rca: Row): Row {
  return {
    id: rca.id,
    checkType: rca.checkType ?? (rca.groupKind === 'errorGroups' ? 'API' : 'PLAYWRIGHT'),
    provider: 'emulator-ai',
    model: 'emulator-analyst-1',
    durationMs: (rca.readyAt as number) - (rca.startedAt as number),
    status: 'COMPLETED',
    checkId: rca.checkId,
    errorGroupId: rca.groupKind === 'errorGroups' ? rca.groupId : null,
    analysis: completedAnalysis(rca),
    // A server-set `date` field: sent as a date (addendum §1).
    created_at: new Date(rca.startedAt as number).toISOString().slice(0, 10),
  };
}

/** Error groups list their completed analyses. */
function renderGroup(call: Call, group: Row): Row {
  const done = Object.values(table(call, 'rootCauseAnalyses')).filter(
    (r) => r.groupId === group.id && isDone(call, r),
  );
  const embedded = done.map((r) => {
    const full = renderRca(r);
    return {
      id: full.id,
      created_at: full.created_at,
      analysis: full.analysis,
      provider: full.provider,
      model: full.model,
      durationMs: full.durationMs,
      userContext: r.userContext,
    };
  });
  return {
    ...group,
    rootCauseAnalyses: [...((group.rootCauseAnalyses as Row[] | undefined) ?? []), ...embedded],
  };
}

export const errorGroupHandlers = {
  'errorGroups.list': (call: Call): Answer => {
    countErrors(call.account, call.emu.clock.now());
    return pageAnswer(Object.values(table(call, 'errorGroups')), call.query, (g) => renderGroup(call, g));
  },
  'errorGroups.get': (call: Call): Answer => {
    countErrors(call.account, call.emu.clock.now());
    return ok(renderGroup(call, mustGet(table(call, 'errorGroups'), call.params.id, 'Error group')));
  },
  'testSessionErrorGroups.get': (call: Call): Answer =>
    ok(
      renderGroup(
        call,
        mustGet(table(call, 'testSessionErrorGroups'), call.params.id, 'Test session error group'),
      ),
    ),
  'rootCauseAnalyses.generateForErrorGroup': (call: Call): Answer =>
    generate(call, 'errorGroups', call.params.errorGroupId),
  'rootCauseAnalyses.generateForTestSessionErrorGroup': (call: Call): Answer =>
    generate(call, 'testSessionErrorGroups', call.params.testSessionErrorGroupId),
  'rootCauseAnalyses.get': (call: Call): Answer => {
    const rca = mustGet(table(call, 'rootCauseAnalyses'), call.params.id, 'Root cause analysis');
    if (!isDone(call, rca)) return ok({ id: rca.id, status: 'PENDING' }, 202);
    return ok(renderRca(rca));
  },
};
