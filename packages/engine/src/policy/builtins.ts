import {
  definePolicy,
  type PlanPolicyViolation,
  type Policy,
  type PolicyOperation,
  type PolicyPlan,
  type PolicyProject,
} from '@monitor/constructs';

/**
 * The policies every project has unless its config turns them off (`policySeverity`). Each asks
 * "will anyone be told?" or "is this what the author meant?" of one kind of resource.
 */

type Row = Readonly<Record<string, unknown>>;

const list = (value: unknown): Row[] => (Array.isArray(value) ? (value as Row[]) : []);
const DAY_MS = 24 * 60 * 60 * 1000;

export const groupWithoutAlertChannel = definePolicy({
  name: 'group-without-alert-channel',
  description:
    'A check group subscribes to at least one alert channel: otherwise no one is told when it fails.',
  severity: 'warning',
  kinds: ['CheckGroup'],
  check(group) {
    const subscriptions = list(group.payload.alertChannelSubscriptions);
    if (subscriptions.some((s) => s.activated !== false)) return undefined;
    return {
      path: 'alertChannels',
      message:
        subscriptions.length === 0
          ? 'has no alert-channel subscription: no one is told when its checks fail'
          : `has ${subscriptions.length} alert-channel subscription${subscriptions.length === 1 ? '' : 's'}, none activated: no one is told when its checks fail`,
      hint: 'subscribe it to a channel: alertChannels: [oncall]',
    };
  },
});

/**
 * `info`, not `warning`: monitor creates groups with autoAssignAlerts=false, so the service's
 * default (subscribe a new group to every channel) never applies; the finding says so, for authors
 * who expect it. That the group then alerts no one is `group-without-alert-channel`'s finding.
 */
export const groupCreatedWithoutSubscriptions = definePolicy({
  name: 'group-created-without-subscriptions',
  description:
    "A check group created with no subscriptions is not subscribed to every alert channel, as the service's autoAssignAlerts (true by default) would do: monitor creates it with autoAssignAlerts=false.",
  severity: 'info',
  scope: 'plan',
  check(plan) {
    const channels = plan.live.AlertChannel.length;
    return groupsWithoutSubscriptions(plan, 'create').map((op) => ({
      kind: op.kind,
      logicalId: op.logicalId,
      path: 'alertChannels',
      message: `is created with no alert-channel subscriptions. The service would subscribe a new group to every alert channel in the account (autoAssignAlerts defaults to true; ${channels} channel${channels === 1 ? '' : 's'} here); monitor creates it with autoAssignAlerts=false, so it gets none`,
      hint: 'say which channels it alerts: alertChannels: [oncall]',
    }));
  },
});

export const groupAdoptedLosesSubscriptions = definePolicy({
  name: 'group-adopted-loses-subscriptions',
  description:
    'Adopting a check group whose code declares no subscriptions does not remove the ones it has in the account (autoAssignAlerts gave a group made in the UI every channel).',
  severity: 'warning',
  scope: 'plan',
  check(plan) {
    return groupsWithoutSubscriptions(plan, 'adopt').flatMap((op) => {
      const had = list(op.before?.alertChannelSubscriptions);
      if (had.length === 0) return [];
      return [
        {
          kind: op.kind,
          logicalId: op.logicalId,
          path: 'alertChannels',
          message: `is adopted with no alert-channel subscriptions: the update removes the ${had.length} it has in the account (channel id${had.length === 1 ? '' : 's'} ${had.map((s) => String(s.alertChannelId)).join(', ')}), which autoAssignAlerts probably gave it when it was created`,
          hint: 'declare the subscriptions it should keep before adopting it: alertChannels: [AlertChannel.fromId(id)]',
        },
      ];
    });
  },
});

/** The plan's check groups of `action` whose code declares no subscription. */
function groupsWithoutSubscriptions(plan: PolicyPlan, action: 'create' | 'adopt'): PolicyOperation[] {
  return plan.operations.filter(
    (op) =>
      op.kind === 'CheckGroup' &&
      op.action === action &&
      list(op.after?.alertChannelSubscriptions).length === 0,
  );
}

export const groupActivatedButMuted = definePolicy({
  name: 'group-activated-but-muted',
  description: 'A check group whose checks run is not muted: muted, they run and no one is alerted.',
  severity: 'warning',
  kinds: ['CheckGroup'],
  check(group) {
    if (group.payload.muted !== true || group.payload.activated === false) return undefined;
    const why = group.commentOn('muted');
    return {
      path: 'muted',
      message: `is activated but muted: its checks run and no one is alerted when they fail${why === undefined ? '' : ` (in code: "${why}")`}`,
      hint: 'unmute it, deactivate it (activated: false), or waive this with policyExceptions and the reason',
    };
  },
});

export const groupMutedWithoutComment = definePolicy({
  name: 'group-muted-without-comment',
  description: 'A muted check group says why in a comment beside `muted: true`.',
  severity: 'warning',
  kinds: ['CheckGroup'],
  check(group) {
    if (group.payload.muted !== true || group.commentOn('muted') !== undefined) return undefined;
    return {
      path: 'muted',
      message: 'is muted with no comment saying why',
      hint: 'write the reason beside it: muted: true, // until the vendor fixes TICKET-123',
    };
  },
});

export const maintenanceSilencesAllAlerts = definePolicy({
  name: 'maintenance-silences-all-alerts',
  description:
    "A maintenance window silences the groups it is for (silenceAlertsTags), not the whole account's alerts.",
  severity: 'warning',
  kinds: ['MaintenanceWindow'],
  check(window) {
    if (window.payload.silenceAllAlerts !== true) return undefined;
    // No example: a window's own tags may name check groups, which silencing does not match, and
    // another project's tags (the old "payments") would mislead.
    return {
      path: 'silenceAllAlerts',
      message: 'silences every alert of the account while it is on, not only those of the checks it is for',
      hint: 'silence only the tags of the checks it is for: silenceAllAlerts: false, and those tags in silenceAlertsTags',
    };
  },
});

export const maintenanceLongerThanADay = definePolicy({
  name: 'maintenance-longer-than-a-day',
  description: 'A maintenance window silences for at most 24 hours at a time.',
  severity: 'warning',
  kinds: ['MaintenanceWindow'],
  check(window) {
    const length = Date.parse(String(window.payload.endsAt)) - Date.parse(String(window.payload.startsAt));
    if (!(length > DAY_MS)) return undefined;
    return {
      path: 'endsAt',
      message: `lasts ${formatHours(length)} at a time: alerts are silenced for more than 24 hours`,
      hint: 'split it, or repeat a shorter window (repeatUnit, repeatInterval)',
    };
  },
});

export const maintenanceRepeatsForever = definePolicy({
  name: 'maintenance-repeats-forever',
  description: 'A repeating maintenance window says when it stops repeating (repeatEndsAt).',
  severity: 'warning',
  kinds: ['MaintenanceWindow'],
  check(window) {
    if (window.payload.repeatUnit === null || window.payload.repeatUnit === undefined) return undefined;
    if (window.payload.repeatEndsAt !== null && window.payload.repeatEndsAt !== undefined) return undefined;
    return {
      path: 'repeatUnit',
      message: `repeats every ${String(window.payload.repeatInterval ?? 1)} ${String(window.payload.repeatUnit).toLowerCase()}(s) with no repeatEndsAt: it silences alerts forever`,
      hint: "say when it stops: repeatEndsAt: '2027-01-01T00:00:00Z'",
    };
  },
});

export const statusPageCardWithoutServices = definePolicy({
  name: 'status-page-card-without-services',
  description: 'Every card of a status page shows at least one service.',
  severity: 'warning',
  kinds: ['StatusPage'],
  check(page) {
    return list(page.payload.cards).flatMap((card, i) =>
      list(card.services).length > 0
        ? []
        : [
            {
              path: `cards[${i}]`,
              message: `card "${String(card.name)}" has no services: it shows nothing`,
              hint: 'add the services it is about, or remove the card',
            },
          ],
    );
  },
});

/** The tags of each check group of the project, computed once per project. */
const groupTags = new WeakMap<PolicyProject, string[][]>();

export const dashboardTagsMatchNothing = definePolicy({
  name: 'dashboard-tags-match-nothing',
  description:
    "A dashboard's tags select at least one check group the project declares (status pages in this API have no tags).",
  severity: 'warning',
  kinds: ['Dashboard'],
  check(dashboard, project) {
    const tags = (Array.isArray(dashboard.payload.tags) ? dashboard.payload.tags : []) as string[];
    if (tags.length === 0) return undefined;
    let groups = groupTags.get(project);
    if (groups === undefined) {
      groups = project.resources
        .filter((r) => r.kind === 'CheckGroup')
        .map((r) => (Array.isArray(r.payload.tags) ? (r.payload.tags as string[]) : []));
      groupTags.set(project, groups);
    }
    const all = dashboard.payload.useTagsAndOperator === true;
    const matches = groups.some((g) =>
      all ? tags.every((t) => g.includes(t)) : tags.some((t) => g.includes(t)),
    );
    if (matches) return undefined;
    return {
      path: 'tags',
      message: `selects checks by tags ${tags.map((t) => JSON.stringify(t)).join(all ? ' and ' : ', ')}, which ${all ? 'no check group of the project has together' : 'no check group of the project has'}`,
      hint: 'use the tags of the groups it should show, or tag those groups',
    };
  },
});

function deletes(kind: 'StatusPage' | 'Dashboard', what: string) {
  return (plan: PolicyPlan): PlanPolicyViolation[] =>
    plan.deletions
      .filter((op) => op.kind === kind)
      .map((op) => ({
        kind: op.kind,
        logicalId: op.logicalId,
        message: `deletes ${what}${op.name === undefined ? '' : ` "${op.name}"`} (id ${String(op.physicalId)}): whoever reads it loses it`,
        hint: 'if it is meant to stay, put its construct back; to keep it out of monitor, forget it: monitor state rm',
      }));
}

export const deletesStatusPage = definePolicy({
  name: 'deletes-status-page',
  description: 'A plan that deletes a status page says so: its readers lose it.',
  severity: 'warning',
  scope: 'plan',
  check: deletes('StatusPage', 'the status page'),
});

export const deletesDashboard = definePolicy({
  name: 'deletes-dashboard',
  description: 'A plan that deletes a dashboard says so: its readers lose it.',
  severity: 'warning',
  scope: 'plan',
  check: deletes('Dashboard', 'the dashboard'),
});

export const deletesSubscribedAlertChannel = definePolicy({
  name: 'deletes-subscribed-alert-channel',
  description: 'A plan does not delete an alert channel that check groups still subscribe to.',
  severity: 'warning',
  scope: 'plan',
  check(plan) {
    const out: PlanPolicyViolation[] = [];
    for (const op of plan.deletions) {
      if (op.kind !== 'AlertChannel') continue;
      const subscribers = stillSubscribed(plan, op);
      if (subscribers.length === 0) continue;
      out.push({
        kind: op.kind,
        logicalId: op.logicalId,
        message: `deletes alert channel${op.name === undefined ? '' : ` "${op.name}"`} (id ${String(op.physicalId)}), which ${subscribers.length} check group${subscribers.length === 1 ? ' still subscribes' : 's still subscribe'} to: ${subscribers.join(', ')}. They lose this route for their alerts`,
        hint: 'subscribe them to another channel first, or keep the channel',
      });
    }
    return out;
  },
});

/** The live check groups subscribed to a deleted channel that the plan leaves subscribed, by name. */
function stillSubscribed(plan: PolicyPlan, channel: PolicyOperation): string[] {
  const touched = new Map(
    plan.operations.filter((op) => op.kind === 'CheckGroup').map((op) => [String(op.physicalId), op]),
  );
  const subscribes = (subscriptions: unknown) =>
    list(subscriptions).some((s) => String(s.alertChannelId) === String(channel.physicalId));
  return plan.live.CheckGroup.filter((group) => {
    if (!subscribes(group.alertChannelSubscriptions)) return false;
    const op = touched.get(String(group.id));
    if (op === undefined) return true;
    return op.after !== undefined && subscribes(op.after.alertChannelSubscriptions);
  }).map((group) => `"${String(group.name)}" (id ${String(group.id)})`);
}

export const alertChannelSendsNothing = definePolicy({
  name: 'alert-channel-sends-nothing',
  description:
    'An alert channel sends something: at least one of sendFailure, sendRecovery, sendDegraded is on.',
  severity: 'warning',
  kinds: ['AlertChannel'],
  check(channel) {
    const { sendFailure, sendRecovery, sendDegraded, sslExpiry } = channel.payload;
    if (sendFailure !== false || sendRecovery !== false || sendDegraded !== false) return undefined;
    return {
      path: 'sendFailure',
      message: `has every send* switch off: it never tells anyone a check failed, recovered or degraded${sslExpiry === true ? ' (only SSL expiry notices)' : ''}`,
      hint: 'turn on at least sendFailure, or delete the channel',
    };
  },
});

export const BUILT_IN_POLICIES: readonly Policy[] = [
  groupWithoutAlertChannel,
  groupCreatedWithoutSubscriptions,
  groupAdoptedLosesSubscriptions,
  groupActivatedButMuted,
  groupMutedWithoutComment,
  maintenanceSilencesAllAlerts,
  maintenanceLongerThanADay,
  maintenanceRepeatsForever,
  statusPageCardWithoutServices,
  dashboardTagsMatchNothing,
  deletesStatusPage,
  deletesDashboard,
  deletesSubscribedAlertChannel,
  alertChannelSendsNothing,
];

function formatHours(ms: number): string {
  const hours = ms / (60 * 60 * 1000);
  return hours >= 48
    ? `${(hours / 24).toFixed(1).replace(/\.0$/, '')} days`
    : `${hours.toFixed(1).replace(/\.0$/, '')} hours`;
}
