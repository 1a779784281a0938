import {
  ALERT_SETTINGS_DEFAULT,
  API_CHECK_DEFAULTS_DEFAULT,
  CHECK_GROUP_DEFAULTS,
  ENVIRONMENT_VARIABLE_DEFAULTS,
  KINDS,
  RETRY_STRATEGY_OBJECT_DEFAULTS,
  SUBSCRIPTION_DEFAULTS,
} from '@monitor/api';
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
import { conflict, notFound } from '../problem.js';
import { nextId, type Row } from '../store.js';

const kind = KINDS.CheckGroup;

function normalise(body: Row): Row {
  const out = withSortedSets(kind, body);
  if (Array.isArray(out.environmentVariables)) {
    out.environmentVariables = (out.environmentVariables as Row[]).map((v) => ({
      ...ENVIRONMENT_VARIABLE_DEFAULTS,
      ...v,
    }));
  }
  if (Array.isArray(out.alertChannelSubscriptions)) {
    out.alertChannelSubscriptions = (out.alertChannelSubscriptions as Row[]).map((s) => ({
      ...SUBSCRIPTION_DEFAULTS,
      ...s,
    }));
  }
  if (out.retryStrategy !== null && typeof out.retryStrategy === 'object') {
    out.retryStrategy = { ...RETRY_STRATEGY_OBJECT_DEFAULTS, ...(out.retryStrategy as Row) };
  }
  return out;
}

function checkSubscriptions(call: Call, body: Row): void {
  const subs = body.alertChannelSubscriptions as { alertChannelId: number }[] | undefined | null;
  for (const sub of subs ?? []) {
    if (table(call, 'alertChannels')[String(sub.alertChannelId)] === undefined) {
      throw notFound(`Alert channel ${sub.alertChannelId}`);
    }
  }
}

/** Secret values are stored but always come back empty. */
export function renderCheckGroup(row: Row): Row {
  const vars = row.environmentVariables as Row[] | null;
  return {
    ...row,
    environmentVariables:
      vars === null ? null : vars.map((v) => (v.secret === true ? { ...v, value: '' } : v)),
  };
}

export const checkGroupHandlers = {
  'checkGroups.list': (call: Call): Answer => {
    const tags = [call.query.tag ?? []].flat() as string[];
    const names = [call.query.name ?? []].flat() as string[];
    const rows = Object.values(table(call, 'checkGroups')).filter(
      (g) =>
        (tags.length === 0 || tags.some((t) => (g.tags as string[]).includes(t))) &&
        (names.length === 0 || names.includes(g.name as string)),
    );
    return pageAnswer(rows, call.query, renderCheckGroup);
  },

  'checkGroups.create': (call: Call): Answer => {
    checkSubscriptions(call, call.body);
    const id = nextId(call.account, 'checkGroup');
    const body = normalise(call.body);
    const row: Row = {
      id,
      ...CHECK_GROUP_DEFAULTS,
      ...body,
      apiCheckDefaults: withDefaults(API_CHECK_DEFAULTS_DEFAULT, body.apiCheckDefaults as Row | undefined),
      alertSettings:
        body.alertSettings === null
          ? null
          : withDefaults(ALERT_SETTINGS_DEFAULT, body.alertSettings as Row | undefined),
      created_at: call.emu.clock.today(),
      updated_at: null,
    };
    const subs = row.alertChannelSubscriptions as Row[];
    if (call.query.autoAssignAlerts !== false && subs.length === 0) {
      row.alertChannelSubscriptions = Object.keys(table(call, 'alertChannels')).map((channelId) => ({
        alertChannelId: Number(channelId),
        activated: true,
      }));
    }
    table(call, 'checkGroups')[String(id)] = row;
    return ok(renderCheckGroup(row), 201);
  },

  'checkGroups.get': (call: Call): Answer =>
    ok(renderCheckGroup(mustGet(table(call, 'checkGroups'), call.params.id, 'Check group'))),

  'checkGroups.update': (call: Call): Answer => {
    const row = mustGet(table(call, 'checkGroups'), call.params.id, 'Check group');
    checkSubscriptions(call, call.body);
    applyPartial(row, normalise(call.body), kind);
    row.updated_at = call.emu.clock.nowIso();
    return ok(renderCheckGroup(row));
  },

  'checkGroups.delete': (call: Call): Answer => {
    mustGet(table(call, 'checkGroups'), call.params.id, 'Check group');
    const inUse = Object.values(table(call, 'checks')).filter((c) => c.groupId === call.params.id);
    if (inUse.length > 0) {
      throw conflict(
        `Check group ${call.params.id} still has ${inUse.length} check(s); move or delete them first`,
      );
    }
    const answer = removeOr404(table(call, 'checkGroups'), call.params.id, 'Check group');
    // Its subscriptions go with it.
    for (const channel of Object.values(table(call, 'alertChannels'))) {
      channel.subscriptions = (channel.subscriptions as Row[]).filter((s) => s.groupId !== call.params.id);
    }
    return answer;
  },
};
