import { systemClock } from './clock.js';
import { type Endpoint, endpoints } from './endpoints.js';
import { ConfigError, TimeoutError } from './errors.js';
import { type CallInput, parseRetryAfter, Transport, type TransportOptions } from './http.js';
import type { ResourceKind } from './kinds/definition.js';
import { KINDS } from './kinds/index.js';
import { itemsOf, iterateCursor, iteratePages, type Page, parseContentRange } from './pagination.js';
import type { CheckSession } from './schemas/check-sessions.js';
import type { RootCauseAnalysis } from './schemas/error-groups.js';
import type { z } from './zod.js';

type E = typeof endpoints;
type Out<K extends keyof E> = E[K]['response'] extends z.ZodType ? z.output<E[K]['response']> : undefined;
type Body<K extends keyof E> = E[K] extends { body: z.ZodType } ? z.input<E[K]['body']> : never;
type Query<K extends keyof E> = E[K] extends { query: z.ZodType } ? z.input<E[K]['query']> : never;
type Item<K extends keyof E> =
  Out<K> extends (infer T)[] ? T : Out<K> extends { entries: (infer T)[] } ? T : never;

/** A live resource of a managed kind, with its physical id (what the kind's paths take) as `id`. */
export type ManagedResource = Record<string, unknown> & { id: string | number };

/** How a managed kind is listed, created, updated and deleted, from its definition. */
export interface ManagedOperations {
  /** Every live resource, one list call per page of 100. */
  pages(): AsyncIterable<Page<ManagedResource>>;
  /** One resource by its physical id; undefined when the account has none with it (404). */
  get(id: string | number): Promise<ManagedResource | undefined>;
  create(payload: Record<string, unknown>): Promise<ManagedResource>;
  update(id: string | number, payload: Record<string, unknown>): Promise<ManagedResource>;
  delete(id: string | number): Promise<void>;
}

export interface ClientOptions extends Partial<TransportOptions> {
  /** Where `MONITOR_*` defaults are read from. @default process.env */
  env?: Record<string, string | undefined>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function required(value: string | undefined, variable: string, what: string): string {
  if (value === undefined || value.trim() === '') {
    throw new ConfigError(
      `${variable} is not set: ${what} is needed to call the API`,
      `set ${variable} in the environment, or pass it to createClient()`,
      variable,
    );
  }
  return value.trim();
}

/** Resolve credentials and base URL from options, then `MONITOR_*` variables; a clear ConfigError names what is missing. */
export function resolveClientConfig(options: ClientOptions = {}): {
  apiKey: string;
  accountId: string;
  baseUrl: string;
} {
  const env = options.env ?? process.env;
  const apiKey = required(options.apiKey ?? env.MONITOR_API_KEY, 'MONITOR_API_KEY', 'an API key');
  const accountId = required(
    options.accountId ?? env.MONITOR_ACCOUNT_ID,
    'MONITOR_ACCOUNT_ID',
    'the account id',
  );
  const baseUrl = required(
    options.baseUrl ?? env.MONITOR_BASE_URL,
    'MONITOR_BASE_URL',
    'the base URL of the service',
  );
  if (!UUID.test(accountId)) {
    throw new ConfigError(
      'MONITOR_ACCOUNT_ID is not a UUID',
      'copy the account id (a UUID) from the account settings',
    );
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConfigError(
      `MONITOR_BASE_URL is not a URL: ${baseUrl}`,
      'use a full URL such as https://api.example.com',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(
      `MONITOR_BASE_URL must be http or https, not ${url.protocol}`,
      'use a full URL such as https://api.example.com',
    );
  }
  return { apiKey, accountId, baseUrl };
}

export type Client = ReturnType<typeof buildClient>;

/**
 * A typed client of the whole service API. Credentials default to `MONITOR_API_KEY`,
 * `MONITOR_ACCOUNT_ID` and `MONITOR_BASE_URL`; nothing is sent when one is missing.
 */
export function createClient(options: ClientOptions = {}): Client {
  const config = resolveClientConfig(options);
  return buildClient(new Transport({ ...options, ...config }));
}

/**
 * How many pages of one page-based list are asked for at a time once the first has told how many
 * there are, so that the round trips of a long list do not add up one after another. The rate
 * limiter still holds them to the account's limits.
 */
const PAGES_IN_FLIGHT = 4;

/** The requests every part of the client is made of: one call, one page, every page. */
function requestsOf(t: Transport) {
  const call = <K extends keyof E>(name: K, input: CallInput = {}) =>
    t.call(endpoints[name], input) as Promise<Out<K>>;

  /** One page of a page-based list, with the total from `Content-Range`. */
  const page = async <K extends keyof E>(
    name: K,
    query: Record<string, unknown> = {},
  ): Promise<Page<Item<K>>> => {
    const raw = await t.send(endpoints[name], { query });
    return { items: raw.data as Item<K>[], total: parseContentRange(raw.headers['content-range']).total };
  };
  const pages = <K extends keyof E>(name: K, query: Record<string, unknown> = {}) =>
    iteratePages<Item<K>>(
      (p, limit) => page(name, { ...query, page: p, limit }),
      (query.limit as number) ?? 100,
      1,
      PAGES_IN_FLIGHT,
    );

  const cursorPage = async <K extends keyof E>(
    name: K,
    query: Record<string, unknown> = {},
  ): Promise<Page<Item<K>>> => {
    const data = (await call(name, { query })) as { entries: Item<K>[]; nextId: string | null };
    return { items: data.entries, nextId: data.nextId };
  };
  const cursorPages = <K extends keyof E>(name: K, query: Record<string, unknown> = {}) =>
    iterateCursor<Item<K>>(
      (nextId, limit) =>
        cursorPage(name, {
          ...query,
          // The whole list in one answer takes no limit: one the service applied would cut it short.
          ...(query.paginated === false ? {} : { limit }),
          ...(nextId === undefined ? {} : { nextId }),
        }),
      (query.limit as number) ?? 100,
    );
  return { call, page, pages, cursorPage, cursorPages };
}

type Requests = ReturnType<typeof requestsOf>;

/** Any managed kind through its definition's operations; live resources carry their physical id as `id`. */
function managedOf(t: Transport, r: Requests) {
  const { call, pages, cursorPages } = r;
  return (kind: ResourceKind): ManagedOperations => {
    const { operations: op } = KINDS[kind];
    const idField = op.idField ?? 'id';
    const asLive = (value: unknown): ManagedResource => {
      const r = value as Record<string, unknown>;
      return (idField === 'id' ? r : { ...r, id: r[idField], serverId: r.id }) as ManagedResource;
    };
    const params = (id: string | number) => ({ [op.idParam]: op.idType === 'int' ? Number(id) : String(id) });
    const list = endpoints[op.list] as Endpoint;
    return {
      async *pages() {
        const query = { ...op.listQuery };
        const iterable =
          list.pagination === 'cursor'
            ? cursorPages(op.list as never, query)
            : pages(op.list as never, query);
        for await (const p of iterable) yield { ...p, items: (p.items as unknown[]).map(asLive) };
      },
      get: async (id) => {
        const raw = await t.send(endpoints[op.get] as Endpoint, { params: params(id) }, [404]);
        return raw.status === 404 ? undefined : asLive(raw.data);
      },
      create: async (payload) =>
        asLive(
          await call(op.create as never, {
            body: payload,
            ...(op.createQuery ? { query: { ...op.createQuery } } : {}),
          }),
        ),
      update: async (id, payload) =>
        asLive(await call(op.update as never, { params: params(id), body: payload })),
      delete: async (id) => {
        await call(op.delete as never, { params: params(id) });
      },
    };
  };
}

/** Check groups, dashboards, status pages and their services. */
function configurationA(r: Requests) {
  const { call, page, pages, cursorPage, cursorPages } = r;
  return {
    checkGroups: {
      list: (query: Query<'checkGroupsList'> = {}) => page('checkGroupsList', query),
      pages: (query: Query<'checkGroupsList'> = {}) => pages('checkGroupsList', query),
      all: (query: Query<'checkGroupsList'> = {}) => itemsOf(pages('checkGroupsList', query)),
      get: (id: number) => call('checkGroupsGet', { params: { id } }),
      create: (body: Body<'checkGroupsCreate'>, query: Query<'checkGroupsCreate'> = {}) =>
        call('checkGroupsCreate', { body, query }),
      update: (id: number, body: Body<'checkGroupsUpdate'>, query: Query<'checkGroupsUpdate'> = {}) =>
        call('checkGroupsUpdate', { params: { id }, body, query }),
      delete: (id: number) => call('checkGroupsDelete', { params: { id } }),
    },

    dashboards: {
      list: (query: Query<'dashboardsList'> = {}) => page('dashboardsList', query),
      pages: (query: Query<'dashboardsList'> = {}) => pages('dashboardsList', query),
      all: (query: Query<'dashboardsList'> = {}) => itemsOf(pages('dashboardsList', query)),
      /** By `dashboardId`, or by custom URL/domain with `{ type: 'customUrl' | 'customDomain' }`. */
      get: (dashboardId: string, query: Query<'dashboardsGet'> = {}) =>
        call('dashboardsGet', { params: { dashboardId }, query }),
      create: (body: Body<'dashboardsCreate'>) => call('dashboardsCreate', { body }),
      update: (dashboardId: string, body: Body<'dashboardsUpdate'>) =>
        call('dashboardsUpdate', { params: { dashboardId }, body }),
      delete: (dashboardId: string) => call('dashboardsDelete', { params: { dashboardId } }),
    },

    statusPages: {
      list: (query: Query<'statusPagesList'> = {}) => cursorPage('statusPagesList', query),
      pages: (query: Query<'statusPagesList'> = {}) => cursorPages('statusPagesList', query),
      all: (query: Query<'statusPagesList'> = {}) => itemsOf(cursorPages('statusPagesList', query)),
      get: (statusPageId: string) => call('statusPagesGet', { params: { statusPageId } }),
      create: (body: Body<'statusPagesCreate'>) => call('statusPagesCreate', { body }),
      update: (statusPageId: string, body: Body<'statusPagesUpdate'>) =>
        call('statusPagesUpdate', { params: { statusPageId }, body }),
      delete: (statusPageId: string) => call('statusPagesDelete', { params: { statusPageId } }),
      deleteSubscription: (statusPageId: string, subscriptionId: string) =>
        call('statusPagesDeleteSubscription', { params: { statusPageId, subscriptionId } }),
    },

    statusPageServices: {
      list: (query: Query<'statusPageServicesList'> = {}) => cursorPage('statusPageServicesList', query),
      pages: (query: Query<'statusPageServicesList'> = {}) => cursorPages('statusPageServicesList', query),
      all: (query: Query<'statusPageServicesList'> = {}) =>
        itemsOf(cursorPages('statusPageServicesList', query)),
      get: (serviceId: string) => call('statusPageServicesGet', { params: { serviceId } }),
      create: (body: Body<'statusPageServicesCreate'>) => call('statusPageServicesCreate', { body }),
      update: (serviceId: string, body: Body<'statusPageServicesUpdate'>) =>
        call('statusPageServicesUpdate', { params: { serviceId }, body }),
      delete: (serviceId: string) => call('statusPageServicesDelete', { params: { serviceId } }),
    },
  };
}

/** Status-page incidents, maintenance windows, incidents and alert channels. */
function configurationB(r: Requests) {
  const { call, page, pages, cursorPage, cursorPages } = r;
  return {
    statusPageIncidents: {
      list: (query: Query<'statusPageIncidentsList'> = {}) => cursorPage('statusPageIncidentsList', query),
      pages: (query: Query<'statusPageIncidentsList'> = {}) => cursorPages('statusPageIncidentsList', query),
      all: (query: Query<'statusPageIncidentsList'> = {}) =>
        itemsOf(cursorPages('statusPageIncidentsList', query)),
      get: (incidentId: string) => call('statusPageIncidentsGet', { params: { incidentId } }),
      create: (body: Body<'statusPageIncidentsCreate'>) => call('statusPageIncidentsCreate', { body }),
      update: (incidentId: string, body: Body<'statusPageIncidentsUpdate'>) =>
        call('statusPageIncidentsUpdate', { params: { incidentId }, body }),
      delete: (incidentId: string) => call('statusPageIncidentsDelete', { params: { incidentId } }),
      /** The 100 latest updates. */
      listUpdates: (incidentId: string) => call('statusPageIncidentsListUpdates', { params: { incidentId } }),
      createUpdate: (incidentId: string, body: Body<'statusPageIncidentsCreateUpdate'>) =>
        call('statusPageIncidentsCreateUpdate', { params: { incidentId }, body }),
    },

    maintenanceWindows: {
      list: (query: Query<'maintenanceWindowsList'> = {}) => page('maintenanceWindowsList', query),
      pages: (query: Query<'maintenanceWindowsList'> = {}) => pages('maintenanceWindowsList', query),
      all: (query: Query<'maintenanceWindowsList'> = {}) => itemsOf(pages('maintenanceWindowsList', query)),
      get: (id: number) => call('maintenanceWindowsGet', { params: { id } }),
      create: (body: Body<'maintenanceWindowsCreate'>) => call('maintenanceWindowsCreate', { body }),
      update: (id: number, body: Body<'maintenanceWindowsUpdate'>) =>
        call('maintenanceWindowsUpdate', { params: { id }, body }),
      delete: (id: number) => call('maintenanceWindowsDelete', { params: { id } }),
    },

    incidents: {
      create: (body: Body<'incidentsCreate'>) => call('incidentsCreate', { body }),
      get: (id: string, query: Query<'incidentsGet'> = {}) => call('incidentsGet', { params: { id }, query }),
      update: (id: string, body: Body<'incidentsUpdate'>) =>
        call('incidentsUpdate', { params: { id }, body }),
      delete: (id: string) => call('incidentsDelete', { params: { id } }),
      createUpdate: (incidentId: string, body: Body<'incidentsCreateUpdate'>) =>
        call('incidentsCreateUpdate', { params: { incidentId }, body }),
    },

    alertChannels: {
      list: (query: Query<'alertChannelsList'> = {}) => page('alertChannelsList', query),
      pages: (query: Query<'alertChannelsList'> = {}) => pages('alertChannelsList', query),
      all: (query: Query<'alertChannelsList'> = {}) => itemsOf(pages('alertChannelsList', query)),
      get: (id: number) => call('alertChannelsGet', { params: { id } }),
      create: (body: Body<'alertChannelsCreate'>) => call('alertChannelsCreate', { body }),
      update: (id: number, body: Body<'alertChannelsUpdate'>) =>
        call('alertChannelsUpdate', { params: { id }, body }),
      delete: (id: number) => call('alertChannelsDelete', { params: { id } }),
      upsertSubscription: (id: number, body: Body<'alertChannelsUpsertSubscription'>) =>
        call('alertChannelsUpsertSubscription', { params: { id }, body }),
    },
  };
}

/** Checks and check sessions: trigger, read, and wait for them. */
function sessionsApi(t: Transport, r: Requests) {
  const { call, page, pages } = r;
  return {
    checks: {
      list: (query: Query<'checksList'> = {}) => page('checksList', query),
      pages: (query: Query<'checksList'> = {}) => pages('checksList', query),
      all: (query: Query<'checksList'> = {}) => itemsOf(pages('checksList', query)),
      get: (id: string, query: Query<'checksGet'> = {}) => call('checksGet', { params: { id }, query }),
    },

    checkSessions: {
      trigger: (body: Body<'checkSessionsTrigger'> = {}) => call('checkSessionsTrigger', { body }),
      get: (checkSessionId: string) => call('checkSessionsGet', { params: { checkSessionId } }),
      /**
       * One long poll: `{ session }` when final, or `{ session: null, retryAfterMs }` when it still
       * runs after `maxWaitSeconds` (408), with the server's `Retry-After` (1 s when it sends none).
       */
      completion: async (
        checkSessionId: string,
        query: Query<'checkSessionsCompletion'> = {},
      ): Promise<{ session: CheckSession } | { session: null; retryAfterMs: number }> => {
        const raw = await t.send(
          endpoints.checkSessionsCompletion,
          { params: { checkSessionId }, query },
          [408],
        );
        if (raw.status !== 408) return { session: raw.data as CheckSession };
        return {
          session: null,
          retryAfterMs: parseRetryAfter(raw.headers['retry-after'], Date.now()) ?? 1000,
        };
      },
      /**
       * Long-poll until the session is final; a TimeoutError after `timeoutMs`. Each poll asks the
       * service to hold it 20 s at most, well inside the client's 30 s wait for an answer.
       */
      awaitCompletion: async (
        checkSessionId: string,
        options: { timeoutMs?: number; maxWaitSeconds?: number } = {},
      ): Promise<CheckSession> => {
        const deadline = Date.now() + (options.timeoutMs ?? 10 * 60_000);
        for (;;) {
          const remaining = deadline - Date.now();
          const maxWaitSeconds = Math.max(
            1,
            Math.min(options.maxWaitSeconds ?? 20, Math.ceil(remaining / 1000)),
          );
          const raw = await t.send(
            endpoints.checkSessionsCompletion,
            { params: { checkSessionId }, query: { maxWaitSeconds } },
            [408],
          );
          if (raw.status !== 408) return raw.data as CheckSession;
          if (Date.now() >= deadline) {
            throw new TimeoutError(
              `check session ${checkSessionId} did not finish within ${options.timeoutMs ?? 600_000} ms`,
              {
                method: 'GET',
                path: endpoints.checkSessionsCompletion.path,
                phase: 'body',
                hint: 'the session still runs; wait longer or read it later with checkSessions.get',
              },
            );
          }
          const retryAfter = parseRetryAfter(raw.headers['retry-after'], Date.now()) ?? 1000;
          await systemClock.sleep(Math.min(retryAfter, deadline - Date.now()));
        }
      },
    },
  };
}

/** Results, test sessions, analytics and error groups. */
function resultsApi(r: Requests) {
  const { call, page, pages } = r;
  return {
    checkResults: {
      get: (checkId: string, checkResultId: string) =>
        call('checkResultsGet', { params: { checkId, checkResultId } }),
    },

    testSessions: {
      cancel: (testSessionId: string, body: Body<'testSessionsCancel'> = {}) =>
        call('testSessionsCancel', { params: { testSessionId }, body }),
    },

    analytics: {
      apiCheck: (id: string, query: Query<'analyticsApiCheck'>) =>
        call('analyticsApiCheck', { params: { id }, query }),
      summary: (body: Body<'analyticsSummary'>, query: Query<'analyticsSummary'> = {}) =>
        call('analyticsSummary', { body, query }),
    },

    errorGroups: {
      list: (query: Query<'errorGroupsList'> = {}) => page('errorGroupsList', query),
      pages: (query: Query<'errorGroupsList'> = {}) => pages('errorGroupsList', query),
      all: (query: Query<'errorGroupsList'> = {}) => itemsOf(pages('errorGroupsList', query)),
      get: (id: string) => call('errorGroupsGet', { params: { id } }),
    },

    testSessionErrorGroups: {
      get: (id: string) => call('testSessionErrorGroupsGet', { params: { id } }),
    },
  };
}

/** Root cause analyses and private-location metrics. */
function analysesApi(r: Requests) {
  const { call } = r;
  return {
    rootCauseAnalyses: {
      /** Ask for an analysis of an error group or a test-session error group; 202 with a PENDING id. */
      generate: (
        target: { errorGroupId: string } | { testSessionErrorGroupId: string },
        body: Body<'rootCauseAnalysesGenerateForErrorGroup'> = {},
      ) =>
        'errorGroupId' in target
          ? call('rootCauseAnalysesGenerateForErrorGroup', {
              params: { errorGroupId: target.errorGroupId },
              body,
            })
          : call('rootCauseAnalysesGenerateForTestSessionErrorGroup', {
              params: { testSessionErrorGroupId: target.testSessionErrorGroupId },
              body,
            }),
      /** The analysis when COMPLETED, or `{ id, status: 'PENDING' }` while it is generated. */
      get: (id: string) => call('rootCauseAnalysesGet', { params: { id } }),
      /** Poll until COMPLETED; a TimeoutError after `timeoutMs`. */
      awaitCompletion: async (
        id: string,
        options: { timeoutMs?: number; intervalMs?: number } = {},
      ): Promise<RootCauseAnalysis> => {
        const deadline = Date.now() + (options.timeoutMs ?? 5 * 60_000);
        for (;;) {
          const result = await call('rootCauseAnalysesGet', { params: { id } });
          if (result.status === 'COMPLETED') return result as RootCauseAnalysis;
          if (Date.now() >= deadline) {
            throw new TimeoutError(
              `root cause analysis ${id} is still PENDING after ${options.timeoutMs ?? 300_000} ms`,
              {
                method: 'GET',
                path: endpoints.rootCauseAnalysesGet.path,
                phase: 'body',
                hint: 'read it again later with rootCauseAnalyses.get',
              },
            );
          }
          await systemClock.sleep(options.intervalMs ?? 2000);
        }
      },
    },

    privateLocations: {
      /** `from` and `to` in unix seconds; `from` less than 15 days ago. */
      metrics: (id: string, query: { from: number; to: number }) =>
        call('privateLocationsMetrics', { params: { id }, query }),
    },
  };
}

function buildClient(t: Transport) {
  const r = requestsOf(t);
  return {
    /** Requests sent so far, retries included. */
    get requestCount(): number {
      return t.requestCount;
    },
    /** How this client retries; the deployer reconciles writes of unknown outcome by the same policy. */
    retryPolicy: t.retryPolicy,
    /** Close the client's connections once the requests in flight are answered. */
    close: () => t.close(),
    /** Close the client's connections now; requests in flight fail. */
    destroy: () => t.destroy(),
    managed: managedOf(t, r),
    ...configurationA(r),
    ...configurationB(r),
    ...sessionsApi(t, r),
    ...resultsApi(r),
    ...analysesApi(r),
  };
}

export interface AgentHealthClientOptions
  extends Pick<TransportOptions, 'timeouts' | 'dispatcher' | 'onRequest' | 'onResponse'> {
  /** The agent's own address, e.g. `http://agent-host:8081`. */
  baseUrl: string;
}

/** The private-location agent's health endpoints, on the agent's own base URL, without auth. */
export function createAgentHealthClient(options: AgentHealthClientOptions) {
  const t = new Transport({ ...options, rateLimit: false, routeRateLimits: false, retry: { attempts: 1 } });
  const probe = async (endpoint: Endpoint) => {
    const raw = await t.send(endpoint, {}, [503]);
    return { status: raw.status, ok: raw.status === 200 };
  };
  return {
    /** 200 when the agent is ready; `ok: false` with 503 while it shuts down. */
    readiness: () => probe(endpoints.agentReadiness),
    liveness: () => probe(endpoints.agentLiveness),
    health: () => probe(endpoints.agentHealth),
    close: () => t.close(),
  };
}
export type AgentHealthClient = ReturnType<typeof createAgentHealthClient>;
