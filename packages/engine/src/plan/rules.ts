import type { ResourceKind } from '@monitor/constructs';

/** How a kind's fields compare: what makes `deploy` then `diff` say "No changes". */
export interface KindRules {
  /** Arrays that are sets: compared without order (the service may reorder them). */
  sets: readonly string[];
  /** Arrays of records matched by a key field instead of position. Paths use `[]` for list items. */
  keyed: Readonly<Record<string, string>>;
  /** Date fields, compared as instants. */
  dates: readonly string[];
  /** The value that finds an unowned live resource to adopt; undefined when the kind has none. */
  naturalKey?: (payload: Record<string, unknown>) => string | undefined;
}

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

export const KIND_RULES: Record<ResourceKind, KindRules> = {
  CheckGroup: {
    sets: ['tags', 'locations', 'privateLocations'],
    keyed: {
      environmentVariables: 'key',
      alertChannelSubscriptions: 'alertChannelId',
      'apiCheckDefaults.headers': 'key',
      'apiCheckDefaults.queryParameters': 'key',
    },
    dates: [],
    naturalKey: (p) => str(p.name),
  },
  Dashboard: {
    sets: ['tags'],
    keyed: {},
    dates: [],
    naturalKey: (p) => (str(p.customUrl) === undefined ? str(p.customDomain) : `url:${String(p.customUrl)}`),
  },
  StatusPage: {
    sets: [],
    keyed: { cards: 'name', 'cards[].services': 'id' },
    dates: [],
    naturalKey: (p) => str(p.url)?.toLowerCase(),
  },
  StatusPageService: { sets: [], keyed: {}, dates: [], naturalKey: (p) => str(p.name) },
  MaintenanceWindow: {
    sets: [
      'tags',
      'silenceAlertsTags',
      'statusPageVisibility.statusPageIds',
      'statusPageVisibility.serviceIds',
    ],
    keyed: {},
    dates: ['startsAt', 'endsAt', 'repeatEndsAt'],
    naturalKey: (p) => str(p.name),
  },
  AlertChannel: {
    sets: ['config.slackChannels'],
    keyed: { 'config.headers': 'key', 'config.queryParameters': 'key' },
    dates: [],
  },
};

/** The natural key of a live resource, in the same form as `naturalKey` gives for desired ones. */
export function liveNaturalKey(kind: ResourceKind, live: Record<string, unknown>): string | undefined {
  const rules = KIND_RULES[kind];
  return rules.naturalKey?.(live);
}
