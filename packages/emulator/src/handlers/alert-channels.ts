import { ALERT_CHANNEL_DEFAULTS } from '@monitor/api';
import { type Answer, type Call, mustGet, ok, pageAnswer, removeOr404, table } from '../context.js';
import { notFound } from '../problem.js';
import { nextId, type Row } from '../store.js';

export const alertChannelHandlers = {
  'alertChannels.list': (call: Call): Answer =>
    pageAnswer(Object.values(table(call, 'alertChannels')), call.query),

  'alertChannels.create': (call: Call): Answer => {
    const id = nextId(call.account, 'alertChannel');
    const row: Row = {
      id,
      ...ALERT_CHANNEL_DEFAULTS,
      ...call.body,
      subscriptions: [],
      created_at: call.emu.clock.nowIso(),
      updated_at: null,
    };
    table(call, 'alertChannels')[String(id)] = row;
    return ok(row, 201);
  },

  'alertChannels.get': (call: Call): Answer =>
    ok(mustGet(table(call, 'alertChannels'), call.params.id, 'Alert channel')),

  'alertChannels.update': (call: Call): Answer => {
    const row = mustGet(table(call, 'alertChannels'), call.params.id, 'Alert channel');
    for (const [key, value] of Object.entries(call.body as Row)) if (value !== undefined) row[key] = value;
    row.updated_at = call.emu.clock.nowIso();
    return ok(row);
  },

  'alertChannels.delete': (call: Call): Answer => {
    const answer = removeOr404(table(call, 'alertChannels'), call.params.id, 'Alert channel');
    // A deleted channel is no longer subscribed anywhere.
    for (const group of Object.values(table(call, 'checkGroups'))) {
      group.alertChannelSubscriptions = (group.alertChannelSubscriptions as Row[]).filter(
        (s) => s.alertChannelId !== call.params.id,
      );
    }
    return answer;
  },

  'alertChannels.upsertSubscription': (call: Call): Answer => {
    const channel = mustGet(table(call, 'alertChannels'), call.params.id, 'Alert channel');
    const { checkId, groupId, activated } = call.body as {
      checkId?: string;
      groupId?: number;
      activated: boolean;
    };
    if (checkId !== undefined && table(call, 'checks')[checkId] === undefined)
      throw notFound(`Check ${checkId}`);
    if (groupId !== undefined && table(call, 'checkGroups')[String(groupId)] === undefined) {
      throw notFound(`Check group ${groupId}`);
    }
    const subs = channel.subscriptions as Row[];
    let sub = subs.find((s) => (checkId !== undefined ? s.checkId === checkId : s.groupId === groupId));
    if (sub === undefined) {
      sub = {
        id: nextId(call.account, 'subscription'),
        checkId: checkId ?? null,
        groupId: groupId ?? null,
        activated,
      };
      subs.push(sub);
    } else {
      sub.activated = activated;
    }
    return ok(sub);
  },
};
