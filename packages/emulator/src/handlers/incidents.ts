import { type Answer, type Call, cursorAnswer, mustGet, ok, removeOr404, table, uuid } from '../context.js';
import { notFound } from '../problem.js';
import type { Row } from '../store.js';

function checkServices(call: Call, services: { id: string }[]): void {
  for (const s of services)
    if (table(call, 'services')[s.id] === undefined) throw notFound(`Service ${s.id}`);
}

/** Server-set `date` fields go out as dates (addendum §1); `publicIncidentUpdateDate` is a date-time. */
function spUpdate(call: Call, body: Row): Row {
  return {
    id: uuid(),
    status: 'INVESTIGATING',
    notifySubscribers: false,
    publicIncidentUpdateDate: call.emu.clock.nowIso(),
    ...body,
    created_at: call.emu.clock.today(),
  };
}

/** The services an incident names, as the service answers them: every field, dates included. */
function fullServices(call: Call, services: { id: string }[]): Row[] {
  const known = table(call, 'services');
  return services.map((s) => ({ ...(known[s.id] as Row) }));
}

function renderSpIncident(call: Call, row: Row): Row {
  const updates = row.incidentUpdates as Row[];
  const last = updates[updates.length - 1];
  const started = Date.parse(
    (updates[0]?.publicIncidentUpdateDate as string | undefined) ?? (row.created_at as string),
  );
  const resolved = updates.find((u) => u.status === 'RESOLVED');
  const end =
    resolved === undefined ? call.emu.clock.now() : Date.parse(resolved.publicIncidentUpdateDate as string);
  return {
    ...row,
    lastUpdateStatus: last?.status ?? null,
    duration: Math.max(0, Math.round((end - started) / 1000)),
  };
}

/** The newest update only, unless all are asked for. */
function renderIncident(row: Row, all: boolean): Row {
  const updates = row.incidentUpdates as Row[];
  return all ? row : { ...row, incidentUpdates: updates.slice(-1) };
}

export const incidentHandlers = {
  'statusPageIncidents.list': (call: Call): Answer => {
    const rows = Object.values(table(call, 'statusPageIncidents')).reverse();
    const answer = cursorAnswer(rows, call.query);
    const body = answer.body as { entries: Row[] };
    body.entries = body.entries.map((r) => renderSpIncident(call, r));
    return answer;
  },

  'statusPageIncidents.create': (call: Call): Answer => {
    checkServices(call, call.body.services);
    const today = call.emu.clock.today();
    const row: Row = {
      id: uuid(),
      name: call.body.name,
      severity: call.body.severity,
      services: fullServices(call, call.body.services),
      incidentUpdates: (call.body.incidentUpdates as Row[]).map((u) => spUpdate(call, u)),
      created_at: today,
      // The contract types it as a string: a new incident was last updated when it was made.
      updated_at: today,
    };
    table(call, 'statusPageIncidents')[row.id as string] = row;
    return ok(renderSpIncident(call, row), 201);
  },

  'statusPageIncidents.get': (call: Call): Answer =>
    ok(
      renderSpIncident(call, mustGet(table(call, 'statusPageIncidents'), call.params.incidentId, 'Incident')),
    ),

  'statusPageIncidents.update': (call: Call): Answer => {
    const row = mustGet(table(call, 'statusPageIncidents'), call.params.incidentId, 'Incident');
    checkServices(call, call.body.services);
    Object.assign(row, {
      name: call.body.name,
      severity: call.body.severity,
      services: fullServices(call, call.body.services),
    });
    row.updated_at = call.emu.clock.today();
    return ok(renderSpIncident(call, row));
  },

  'statusPageIncidents.delete': (call: Call): Answer => {
    return removeOr404(table(call, 'statusPageIncidents'), call.params.incidentId, 'Incident');
  },

  'statusPageIncidents.listUpdates': (call: Call): Answer => {
    const row = mustGet(table(call, 'statusPageIncidents'), call.params.incidentId, 'Incident');
    return ok((row.incidentUpdates as Row[]).slice(-100).reverse());
  },

  'statusPageIncidents.createUpdate': (call: Call): Answer => {
    const row = mustGet(table(call, 'statusPageIncidents'), call.params.incidentId, 'Incident');
    const update = spUpdate(call, call.body);
    (row.incidentUpdates as Row[]).push(update);
    row.updated_at = update.created_at;
    return ok(update, 200);
  },

  'incidents.create': (call: Call): Answer => {
    const dashboard = Object.values(table(call, 'dashboards')).find((d) => d.id === call.body.dashboardId);
    if (dashboard === undefined) throw notFound(`Dashboard ${call.body.dashboardId}`);
    const now = call.emu.clock.nowIso();
    const id = uuid();
    const [first] = call.body.incidentUpdates as Row[];
    const row: Row = {
      id,
      name: call.body.name,
      impact: call.body.impact,
      dashboardId: call.body.dashboardId,
      startedAt: call.body.startedAt ?? null,
      stoppedAt: call.body.stoppedAt ?? null,
      incidentUpdates: [{ id: uuid(), ...first, incidentId: id, created_at: now, updated_at: null }],
      created_at: now,
      updated_at: null,
    };
    table(call, 'incidents')[id] = row;
    return ok(row, 200);
  },

  'incidents.get': (call: Call): Answer =>
    ok(
      renderIncident(
        mustGet(table(call, 'incidents'), call.params.id, 'Incident'),
        call.query.includeAllIncidentUpdates === true,
      ),
    ),

  'incidents.update': (call: Call): Answer => {
    const row = mustGet(table(call, 'incidents'), call.params.id, 'Incident');
    for (const [key, value] of Object.entries(call.body as Row)) if (value !== undefined) row[key] = value;
    row.updated_at = call.emu.clock.nowIso();
    return ok(renderIncident(row, false));
  },

  'incidents.delete': (call: Call): Answer => {
    return removeOr404(table(call, 'incidents'), call.params.id, 'Incident');
  },

  'incidents.createUpdate': (call: Call): Answer => {
    const row = mustGet(table(call, 'incidents'), call.params.incidentId, 'Incident');
    const now = call.emu.clock.nowIso();
    const update = { id: uuid(), ...call.body, incidentId: row.id, created_at: now, updated_at: null };
    (row.incidentUpdates as Row[]).push(update);
    row.updated_at = now;
    return ok(update, 201);
  },
};
