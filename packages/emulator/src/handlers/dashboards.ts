import { randomBytes } from 'node:crypto';
import { DASHBOARD_DEFAULTS, KINDS } from '@monitor/api';
import {
  type Answer,
  applyPartial,
  assertUniqueAcrossAccounts,
  type Call,
  ok,
  pageAnswer,
  removeOr404,
  table,
  uuid,
  withSortedSets,
} from '../context.js';
import { notFound } from '../problem.js';
import { nextId, type Row } from '../store.js';

function makeKey(now: string): Row {
  const raw = `dk_${randomBytes(16).toString('hex')}`;
  return { id: uuid(), rawKey: raw, maskedKey: `dk_…${raw.slice(-4)}`, created_at: now, updated_at: now };
}

/** `rawKey` is shown only in the answer that made the key; afterwards it equals `maskedKey`. */
function render(row: Row, revealKeyIds: readonly unknown[] = []): Row {
  const keys = (row.keys as Row[]).map((k) =>
    revealKeyIds.includes(k.id) ? k : { ...k, rawKey: k.maskedKey },
  );
  return { ...row, keys };
}

const kind = KINDS.Dashboard;

/** The dashboard the path names: by dashboardId, or by customUrl/customDomain with `?type`. */
function findDashboard(call: Call, field: string = call.query?.type ?? 'dashboardId'): Row {
  const found = Object.values(table(call, 'dashboards')).find((d) => d[field] === call.params.dashboardId);
  if (found === undefined) throw notFound(`Dashboard ${call.params.dashboardId}`);
  return found;
}

export const dashboardHandlers = {
  'dashboards.list': (call: Call): Answer =>
    pageAnswer(Object.values(table(call, 'dashboards')), call.query, (d) => render(d)),

  'dashboards.create': (call: Call): Answer => {
    const { keys: _ignored, ...body } = call.body as Row;
    const id = nextId(call.account, 'dashboard');
    const customUrl =
      (body.customUrl as string | undefined) ?? `dashboard-${id}-${randomBytes(3).toString('hex')}`;
    assertUniqueAcrossAccounts(call, 'dashboards', kind.uniqueKeys, { ...body, customUrl });
    const now = call.emu.clock.nowIso();
    const row: Row = {
      id,
      dashboardId: uuid(),
      ...DASHBOARD_DEFAULTS,
      ...body,
      customUrl,
      keys: [],
      created_at: now,
      updated_at: null,
    };
    Object.assign(row, withSortedSets(kind, row));
    const made: unknown[] = [];
    if (row.isPrivate === true) {
      const key = makeKey(now);
      (row.keys as Row[]).push(key);
      made.push(key.id);
    }
    table(call, 'dashboards')[String(id)] = row;
    return ok(render(row, made), 201);
  },

  'dashboards.get': (call: Call): Answer => ok(render(findDashboard(call))),

  'dashboards.update': (call: Call): Answer => {
    const row = findDashboard(call, 'dashboardId');
    const { keys: _ignored, ...body } = call.body as Row;
    assertUniqueAcrossAccounts(call, 'dashboards', kind.uniqueKeys, body, row);
    const wasPrivate = row.isPrivate === true;
    applyPartial(row, withSortedSets(kind, body), kind);
    const now = call.emu.clock.nowIso();
    row.updated_at = now;
    const made: unknown[] = [];
    if (!wasPrivate && row.isPrivate === true) {
      const key = makeKey(now);
      (row.keys as Row[]).push(key);
      made.push(key.id);
    }
    return ok(render(row, made));
  },

  'dashboards.delete': (call: Call): Answer => {
    const id = findDashboard(call, 'dashboardId').id as number;
    const answer = removeOr404(table(call, 'dashboards'), id, 'Dashboard');
    // Its incidents go with it.
    const incidents = table(call, 'incidents');
    for (const incident of Object.values(incidents))
      if (incident.dashboardId === id) delete incidents[incident.id as string];
    return answer;
  },
};
