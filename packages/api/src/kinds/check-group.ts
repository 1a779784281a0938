import { checkGroupCreateSchema, checkGroupSchema, checkGroupUpdateSchema } from '../schemas/check-groups.js';
import { fieldName, type KindDefinition } from './definition.js';

/** Defaults of a group's `apiCheckDefaults`; fields left out of a sent object take these. */
export const API_CHECK_DEFAULTS_DEFAULT = {
  url: '',
  headers: [] as { key: string; value: string }[],
  queryParameters: [] as { key: string; value: string }[],
  assertions: [] as { source: string; comparison: string; target: string }[],
  basicAuth: { username: '', password: '' },
};

/** Defaults of a group's `alertSettings`. */
export const ALERT_SETTINGS_DEFAULT = {
  escalationType: 'RUN_BASED' as const,
  runBasedEscalation: { failedRunThreshold: 1 },
  timeBasedEscalation: { minutesFailingThreshold: 5 as const },
  reminders: { amount: 0, interval: 5 as const },
  parallelRunFailureThreshold: { enabled: false, percentage: 10 },
};

/** Fields of a retry-strategy object the service fills when they are absent. */
export const RETRY_STRATEGY_OBJECT_DEFAULTS = { baseBackoffSeconds: 60, sameRegion: true };

export const ENVIRONMENT_VARIABLE_DEFAULTS = { locked: false, secret: false };
export const SUBSCRIPTION_DEFAULTS = { activated: true };

/** The documented create defaults of a check group (spec + addendum §3). */
export const CHECK_GROUP_DEFAULTS = {
  activated: true,
  muted: false,
  doubleCheck: false,
  runParallel: false,
  concurrency: 3,
  tags: [] as string[],
  locations: [] as string[],
  privateLocations: [] as string[],
  environmentVariables: [] as { key: string; value: string; locked: boolean; secret: boolean }[],
  alertChannelSubscriptions: [] as { alertChannelId: number; activated: boolean }[],
  runtimeId: null,
  setupSnippetId: null,
  tearDownSnippetId: null,
  localSetupScript: null,
  localTearDownScript: null,
  useGlobalAlertSettings: null,
  retryStrategy: 'FALLBACK' as const,
  apiCheckDefaults: API_CHECK_DEFAULTS_DEFAULT,
  alertSettings: ALERT_SETTINGS_DEFAULT,
};

export const checkGroupKind: KindDefinition = {
  kind: 'CheckGroup',
  noun: 'check group',
  createSchema: checkGroupCreateSchema,
  updateSchema: checkGroupUpdateSchema,
  responseSchema: checkGroupSchema,
  defaults: CHECK_GROUP_DEFAULTS,
  displayName: fieldName('name'),
  naturalKey: { fields: ['name'] },
  uniqueKeys: [],
  sensitive: [
    { path: 'environmentVariables[].value', when: (variable) => variable.secret === true },
    { path: 'apiCheckDefaults.basicAuth.password' },
  ],
  sets: ['tags', 'locations', 'privateLocations'],
  keyed: {
    environmentVariables: 'key',
    alertChannelSubscriptions: 'alertChannelId',
    'apiCheckDefaults.headers': 'key',
    'apiCheckDefaults.queryParameters': 'key',
  },
  dates: [],
  references: [{ path: 'alertChannelSubscriptions[].alertChannelId', kind: 'AlertChannel' }],
  // Where and how the group's checks run; not its name, tags, muting or alerting.
  runFields: [
    'activated',
    'doubleCheck',
    'runParallel',
    'concurrency',
    'locations',
    'privateLocations',
    'environmentVariables',
    'runtimeId',
    'setupSnippetId',
    'tearDownSnippetId',
    'localSetupScript',
    'localTearDownScript',
    'retryStrategy',
    'apiCheckDefaults',
  ],
  operations: {
    list: 'checkGroupsList',
    get: 'checkGroupsGet',
    create: 'checkGroupsCreate',
    update: 'checkGroupsUpdate',
    delete: 'checkGroupsDelete',
    idParam: 'id',
    idType: 'int',
    // A group created with no subscriptions would otherwise be subscribed to every channel.
    createQuery: { autoAssignAlerts: false },
  },
};
