import {
  LOCATIONS,
  type ManagedResource,
  type ResourceKind,
  RUNTIME_IDS,
  THEME_COLOR_FIELDS,
} from '@monitor/api';
import fc from 'fast-check';

/**
 * Random accounts for property tests: request bodies of every managed kind, setting any field the
 * service takes (nulls included), with references as indices into the kinds created before them.
 */

type Body = Record<string, unknown>;

export interface AccountSpec {
  channels: Body[];
  services: Body[];
  /** `cards[].services[]` hold service indices. */
  pages: Body[];
  /** `alertChannelSubscriptions[].alertChannelId` holds channel indices. */
  groups: Body[];
  dashboards: Body[];
  /** `statusPageVisibility.statusPageIds` / `serviceIds` hold page and service indices. */
  windows: Body[];
}

const word = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'prod', 'eu', 'api', 'web', 'ops');
const text = fc
  .array(
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal "${x}" that generated code must keep as text
    fc.constantFrom('Status', 'of', 'the', 'Acme', "it's", '"quoted"', 'back\\slash', 'ü', '\n', '${x}'),
    {
      minLength: 1,
      maxLength: 8,
    },
  )
  .map((w) => w.join(' '));
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });
const keyValues = fc.uniqueArray(fc.record({ key: word, value: word }), {
  selector: (h) => h.key,
  maxLength: 3,
});
/**
 * Every sensitive value holds this marker, so that a test can prove that no generated file or
 * output holds one.
 */
export const SECRET_MARKER = 's3cr3t';
const secret = (prefix = '') => word.map((w) => `${prefix}${SECRET_MARKER}-${w}"\\ü`);
const secretKeyValues = fc.uniqueArray(fc.record({ key: word, value: secret() }), {
  selector: (h) => h.key,
  maxLength: 3,
});
const hour = (n: number) => new Date(Date.UTC(2027, 0, 1) + n * 3_600_000).toISOString();

/** Only some of the optional fields: a record of which most keys may be left out. */
const some = <T extends Record<string, fc.Arbitrary<unknown>>>(fields: T, required: (keyof T)[] = []) =>
  fc.record(fields, { requiredKeys: required as never }) as unknown as fc.Arbitrary<Body>;

const switches = {
  sendRecovery: fc.boolean(),
  sendFailure: fc.boolean(),
  sendDegraded: fc.boolean(),
  sslExpiry: fc.boolean(),
  sslExpiryThreshold: fc.integer({ min: 1, max: 30 }),
  autoSubscribe: fc.boolean(),
};

const channelArb: fc.Arbitrary<Body> = fc
  .oneof(
    fc.record({
      type: fc.constant('EMAIL'),
      config: fc.record({ address: word.map((w) => `${w}@example.com`) }),
    }),
    fc.record({
      type: fc.constant('SLACK'),
      config: some(
        {
          url: word.map((w) => `https://hooks.slack.example.com/services/${SECRET_MARKER}/${w}`),
          channel: word.map((w) => `#${w}`),
        },
        ['url'],
      ),
    }),
    fc.record({
      type: fc.constant('SLACK_APP'),
      config: fc.record({
        slackChannels: fc.uniqueArray(
          word.map((w) => `#${w}`),
          { minLength: 1, maxLength: 3 },
        ),
      }),
    }),
    fc.record({
      type: fc.constant('WEBHOOK'),
      config: some(
        {
          name: word,
          url: word.map((w) => `https://hooks.example.com/${w}`),
          method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'),
          template: text,
          webhookType: fc.constantFrom('WEBHOOK_MSTEAMS', 'WEBHOOK_TELEGRAM'),
          webhookSecret: secret('whsec-'),
          headers: secretKeyValues,
          queryParameters: secretKeyValues,
        },
        ['name', 'url'],
      ),
    }),
    fc.record({
      type: fc.constantFrom('SMS', 'CALL'),
      config: some({ number: fc.integer({ min: 0, max: 9 }).map((d) => `+3161234567${d}`), name: word }, [
        'number',
      ]),
    }),
    fc.record({
      type: fc.constant('PAGERDUTY'),
      config: some({ serviceKey: secret('pd-'), account: word, serviceName: word }, ['serviceKey']),
    }),
    fc.record({
      type: fc.constant('OPSGENIE'),
      config: fc.record({
        name: word,
        apiKey: secret('og-'),
        region: fc.constantFrom('EU', 'US'),
        priority: fc.constantFrom('P1', 'P2', 'P3', 'P4', 'P5'),
      }),
    }),
  )
  .chain((channel) => some(switches).map((s) => ({ ...channel, ...s })));

const alertSettingsArb = some({
  escalationType: fc.constantFrom('RUN_BASED', 'TIME_BASED'),
  runBasedEscalation: fc.record({ failedRunThreshold: fc.integer({ min: 1, max: 5 }) }),
  timeBasedEscalation: fc.record({ minutesFailingThreshold: fc.constantFrom(5, 10, 15, 30) }),
  reminders: fc.record({ amount: fc.constantFrom(0, 1, 5, 100000), interval: fc.constantFrom(1, 5, 10, 30) }),
  parallelRunFailureThreshold: fc.record({ enabled: fc.boolean(), percentage: fc.constantFrom(10, 50, 100) }),
});

const groupArb = (channels: number): fc.Arbitrary<Body> =>
  some({
    activated: fc.boolean(),
    muted: fc.boolean(),
    tags: fc.uniqueArray(word, { maxLength: 3 }),
    locations: fc.uniqueArray(fc.constantFrom(...LOCATIONS), { maxLength: 3 }),
    concurrency: fc.integer({ min: 1, max: 10 }),
    apiCheckDefaults: some({
      url: word.map((w) => `https://api.example.com/${w}`),
      headers: keyValues,
      queryParameters: keyValues,
      assertions: fc.array(
        some(
          {
            source: fc.constantFrom('STATUS_CODE', 'JSON_BODY', 'RESPONSE_TIME'),
            comparison: fc.constantFrom('EQUALS', 'LESS_THAN', 'CONTAINS'),
            target: fc.constantFrom('200', '1000', 'ok'),
            property: fc.constantFrom('$.status', ''),
            regex: fc.constantFrom('', '^o'),
          },
          ['source', 'comparison', 'target'],
        ),
        { maxLength: 2 },
      ),
      basicAuth: fc.record({ username: word, password: fc.oneof(fc.constant(''), secret('hunter2-')) }),
    }),
    browserCheckDefaults: word,
    runtimeId: maybe(fc.constantFrom(...RUNTIME_IDS)),
    environmentVariables: maybe(
      fc.uniqueArray(
        some(
          { key: word.map((w) => w.toUpperCase()), value: text, locked: fc.boolean(), secret: fc.boolean() },
          ['key', 'value'],
        ).map((v) => (v.secret === true ? { ...v, value: `${SECRET_MARKER} ${String(v.value)}` } : v)),
        { selector: (v) => v.key, maxLength: 3 },
      ),
    ),
    alertChannelSubscriptions: fc
      .uniqueArray(fc.nat({ max: Math.max(0, channels - 1) }), { maxLength: channels })
      .chain((ids) =>
        fc.tuple(
          ...ids.map((id) =>
            some({ alertChannelId: fc.constant(id), activated: fc.boolean() }, ['alertChannelId']),
          ),
        ),
      ),
    setupSnippetId: maybe(fc.integer({ min: 1, max: 50 })),
    tearDownSnippetId: maybe(fc.integer({ min: 1, max: 50 })),
    localSetupScript: maybe(text),
    localTearDownScript: maybe(text),
    runParallel: maybe(fc.boolean()),
    alertSettings: maybe(alertSettingsArb),
    retryStrategy: fc.oneof(
      fc.constant(null),
      fc.constant('FALLBACK'),
      some(
        {
          type: fc.constantFrom('FIXED', 'LINEAR', 'EXPONENTIAL', 'SINGLE_RETRY'),
          baseBackoffSeconds: fc.integer({ min: 0, max: 120 }),
          sameRegion: fc.boolean(),
          maxRetries: fc.integer({ min: 1, max: 10 }),
          maxDurationSeconds: fc.integer({ min: 0, max: 600 }),
          onlyOn: fc.constantFrom([], ['NETWORK_ERROR']),
        },
        ['type'],
      ),
    ),
    useGlobalAlertSettings: maybe(fc.boolean()),
    doubleCheck: fc.boolean(),
  });

const palette = fc.record(
  Object.fromEntries(THEME_COLOR_FIELDS.map((f) => [f, fc.constantFrom('#000000', '#ffffff', '#ff5a00')])),
);

const pageArb = (services: number): fc.Arbitrary<Body> =>
  some({
    cards: fc.uniqueArray(
      fc.record({
        name: word,
        services: fc.uniqueArray(fc.nat({ max: Math.max(0, services - 1) }), { maxLength: services }),
      }),
      { selector: (c) => c.name, maxLength: 3 },
    ),
    description: maybe(text),
    themeColors: fc.record({ light: palette, dark: palette }),
    logo: maybe(word.map((w) => `https://cdn.example.com/${w}.png`)),
    logoDark: maybe(word.map((w) => `https://cdn.example.com/${w}-dark.png`)),
    redirectTo: maybe(word.map((w) => `https://example.com/${w}`)),
    favicon: maybe(word.map((w) => `https://cdn.example.com/${w}.ico`)),
    defaultTheme: fc.constantFrom('LIGHT', 'DARK', 'AUTO'),
    hasCustomDomain: fc.boolean(),
  });

const dashboardArb: fc.Arbitrary<Body> = some({
  hasCustomUrl: fc.boolean(),
  hasCustomDomain: fc.boolean(),
  logo: maybe(word.map((w) => `https://cdn.example.com/${w}.png`)),
  favicon: maybe(word.map((w) => `https://cdn.example.com/${w}.ico`)),
  link: maybe(word.map((w) => `https://example.com/${w}`)),
  description: maybe(text),
  width: fc.constantFrom('FULL', '960PX'),
  refreshRate: fc.constantFrom(60, 300, 600),
  paginate: fc.boolean(),
  paginationRate: fc.constantFrom(30, 60, 300),
  checksPerPage: maybe(fc.integer({ min: 1, max: 20 })),
  useTagsAndOperator: maybe(fc.boolean()),
  hideTags: fc.boolean(),
  enableIncidents: fc.boolean(),
  expandChecks: fc.boolean(),
  tags: fc.uniqueArray(word, { maxLength: 3 }),
  showHeader: fc.boolean(),
  showCheckRunLinks: fc.boolean(),
  showGroupNames: fc.boolean(),
  customCSS: fc.constantFrom('', '.a { color: red; }\n'),
  isPrivate: fc.boolean(),
  showP95: fc.boolean(),
  showP99: fc.boolean(),
  sortByStatus: fc.boolean(),
});

const windowArb = (pages: number, services: number): fc.Arbitrary<Body> =>
  fc
    .record({
      start: fc.integer({ min: 0, max: 1000 }),
      length: fc.integer({ min: 1, max: 48 }),
      repeatUnit: fc.constantFrom(null, 'DAY', 'WEEK', 'MONTH'),
      rest: some({
        tags: fc.uniqueArray(word, { maxLength: 3 }),
        repeatInterval: fc.integer({ min: 1, max: 365 }),
        hasRepeatEnd: fc.boolean(),
        description: maybe(text),
        statusPageVisibility: some({
          enabled: fc.boolean(),
          affectAllServices: fc.boolean(),
          suppressAutoIncidents: fc.boolean(),
          notifyOnStart: fc.boolean(),
          notifyOnEnd: fc.boolean(),
          autoStart: fc.boolean(),
          autoEnd: fc.boolean(),
          showAffectedServices: fc.boolean(),
          severity: maybe(fc.constantFrom('MINOR', 'MEDIUM', 'MAJOR', 'CRITICAL')),
          reminderMinutesBefore: fc.uniqueArray(fc.constantFrom(60, 120, 1440), { maxLength: 2 }),
          statusPageIds: fc.uniqueArray(fc.nat({ max: Math.max(0, pages - 1) }), { maxLength: pages }),
          serviceIds: fc.uniqueArray(fc.nat({ max: Math.max(0, services - 1) }), { maxLength: services }),
        }),
        pauseAllChecks: fc.boolean(),
        silenceAlertsTags: fc.uniqueArray(word, { maxLength: 2 }),
        silenceAllAlerts: fc.boolean(),
        timezone: maybe(fc.constantFrom('Europe/Amsterdam', 'America/New_York')),
      }),
    })
    .map(({ start, length, repeatUnit, rest }) => {
      const { hasRepeatEnd, repeatInterval, ...fields } = rest as Body & { hasRepeatEnd?: boolean };
      return {
        ...fields,
        startsAt: hour(start),
        endsAt: hour(start + length),
        repeatUnit,
        ...(repeatUnit !== null && repeatInterval !== undefined ? { repeatInterval } : {}),
        ...(hasRepeatEnd === true ? { repeatEndsAt: hour(start + 2000) } : {}),
      };
    });

/** A random account: at most a few resources of every kind. */
export const accountArb: fc.Arbitrary<AccountSpec> = fc
  .record({ channels: fc.array(channelArb, { maxLength: 4 }), serviceCount: fc.nat({ max: 3 }) })
  .chain(({ channels, serviceCount }) =>
    fc.record({
      channels: fc.constant(channels),
      services: fc.constant(Array.from({ length: serviceCount }, (_, i) => ({ name: `Service ${i + 1}` }))),
      pages: fc.array(pageArb(serviceCount), { maxLength: 2 }),
      groups: fc.array(groupArb(channels.length), { maxLength: 3 }),
      dashboards: fc.array(dashboardArb, { maxLength: 2 }),
    }),
  )
  .chain((account) =>
    fc
      .array(windowArb(account.pages.length, account.services.length), { maxLength: 2 })
      .map((windows) => ({ ...account, windows })),
  );

/** What was created: each kind's bodies as sent (references resolved) and the resources the service answered. */
export type Seeded = Record<ResourceKind, { body: Body; live: ManagedResource }[]>;

/**
 * Create the account's resources through `create` (the client's managed kinds), in reference
 * order, with names, urls and domains made unique by `run`.
 */
export async function seedAccount(
  spec: AccountSpec,
  create: (kind: ResourceKind, body: Body) => Promise<ManagedResource>,
  run: string,
): Promise<Seeded> {
  const seeded: Seeded = {
    AlertChannel: [],
    CheckGroup: [],
    Dashboard: [],
    StatusPage: [],
    StatusPageService: [],
    MaintenanceWindow: [],
  };
  const add = async (kind: ResourceKind, body: Body) => {
    const live = await create(kind, body);
    seeded[kind].push({ body, live });
    return live;
  };
  const ids = (kind: ResourceKind, indices: unknown) =>
    ((indices as number[] | undefined) ?? []).flatMap((i) => {
      const target = seeded[kind][i];
      return target === undefined ? [] : [target.live.id];
    });
  for (const body of spec.channels) await add('AlertChannel', body);
  for (const body of spec.services) await add('StatusPageService', body);
  for (const [i, { hasCustomDomain, cards, ...body }] of spec.pages.entries()) {
    await add('StatusPage', {
      ...body,
      name: `Page ${i + 1}`,
      url: `page-${i + 1}-${run}`,
      ...(hasCustomDomain === true ? { customDomain: `status${i + 1}.${run}.example.com` } : {}),
      cards: ((cards as { name: string; services: number[] }[] | undefined) ?? []).map((card) => ({
        name: card.name,
        services: ids('StatusPageService', card.services).map((id) => ({ id })),
      })),
    });
  }
  for (const [i, body] of spec.groups.entries()) {
    const subscriptions = (body.alertChannelSubscriptions as Body[] | undefined) ?? [];
    await add('CheckGroup', {
      ...body,
      name: `Group ${i + 1}`,
      alertChannelSubscriptions: subscriptions.flatMap((s) => {
        const [id] = ids('AlertChannel', [s.alertChannelId]);
        return id === undefined ? [] : [{ ...s, alertChannelId: id }];
      }),
    });
  }
  for (const [i, { hasCustomUrl, hasCustomDomain, ...body }] of spec.dashboards.entries()) {
    await add('Dashboard', {
      ...body,
      header: `Dashboard ${i + 1}`,
      ...(hasCustomUrl === true ? { customUrl: `dash-${i + 1}-${run}` } : {}),
      ...(hasCustomDomain === true ? { customDomain: `dash${i + 1}.${run}.example.com` } : {}),
    });
  }
  for (const [i, body] of spec.windows.entries()) {
    const visibility = body.statusPageVisibility as Body | undefined;
    await add('MaintenanceWindow', {
      ...body,
      name: `Window ${i + 1}`,
      ...(visibility === undefined
        ? {}
        : {
            statusPageVisibility: {
              ...visibility,
              statusPageIds: ids('StatusPage', visibility.statusPageIds),
              serviceIds: ids('StatusPageService', visibility.serviceIds),
            },
          }),
    });
  }
  return seeded;
}
