import { KINDS, MAINTENANCE_WINDOW_DEFAULTS, STATUS_PAGE_VISIBILITY_DEFAULTS } from '@monitor/api';
import {
  type Answer,
  applyPartial,
  type Call,
  mustGet,
  ok,
  pageAnswer,
  removeOr404,
  table,
  withDefaults,
  withSortedSets,
} from '../context.js';
import { badRequest } from '../problem.js';
import { nextId, type Row } from '../store.js';

const kind = KINDS.MaintenanceWindow;

type DateFilter = string | { gt?: string; gte?: string; lt?: string; lte?: string };
function matches(value: string, filter: DateFilter | undefined): boolean {
  if (filter === undefined) return true;
  const v = Date.parse(value);
  if (typeof filter === 'string') return v === Date.parse(filter);
  return (
    (filter.gt === undefined || v > Date.parse(filter.gt)) &&
    (filter.gte === undefined || v >= Date.parse(filter.gte)) &&
    (filter.lt === undefined || v < Date.parse(filter.lt)) &&
    (filter.lte === undefined || v <= Date.parse(filter.lte))
  );
}

export const maintenanceWindowHandlers = {
  'maintenanceWindows.list': (call: Call): Answer => {
    const rows = Object.values(table(call, 'maintenanceWindows')).filter(
      (w) =>
        matches(w.startsAt as string, call.query.startsAt) && matches(w.endsAt as string, call.query.endsAt),
    );
    return pageAnswer(rows, call.query);
  },

  'maintenanceWindows.create': (call: Call): Answer => {
    const id = nextId(call.account, 'maintenanceWindow');
    const body = withSortedSets(kind, call.body);
    const row: Row = {
      id,
      ...MAINTENANCE_WINDOW_DEFAULTS,
      ...body,
      statusPageVisibility: withDefaults(
        STATUS_PAGE_VISIBILITY_DEFAULTS,
        body.statusPageVisibility as Row | undefined,
      ),
      created_at: call.emu.clock.today(),
      updated_at: null,
    };
    table(call, 'maintenanceWindows')[String(id)] = row;
    return ok(row, 201);
  },

  'maintenanceWindows.get': (call: Call): Answer =>
    ok(mustGet(table(call, 'maintenanceWindows'), call.params.id, 'Maintenance window')),

  'maintenanceWindows.update': (call: Call): Answer => {
    const row = mustGet(table(call, 'maintenanceWindows'), call.params.id, 'Maintenance window');
    const merged = { ...row, ...call.body };
    if (Date.parse(merged.endsAt as string) <= Date.parse(merged.startsAt as string)) {
      throw badRequest('"endsAt" must be after startsAt', 'payload', ['endsAt']);
    }
    applyPartial(row, withSortedSets(kind, call.body), kind);
    row.updated_at = call.emu.clock.today();
    return ok(row);
  },

  'maintenanceWindows.delete': (call: Call): Answer => {
    return removeOr404(table(call, 'maintenanceWindows'), call.params.id, 'Maintenance window');
  },
};
