import {
  alertSettingsSchema,
  apiCheckDefaultsSchema,
  checkGroupAlertChannelSubscriptionSchema,
  checkGroupCreateSchema,
  checkGroupSchema,
  checkGroupUpdateSchema,
  environmentVariableSchema,
  retryStrategyObjectSchema,
} from '../schemas/check-groups.js';
import { fieldName, type KindDefinition } from './definition.js';
import { defaultsOf } from './fields.js';

/** Defaults of a group's `apiCheckDefaults`; fields left out of a sent object take these. */
export const API_CHECK_DEFAULTS_DEFAULT = defaultsOf(apiCheckDefaultsSchema);

/** Defaults of a group's `alertSettings`. */
export const ALERT_SETTINGS_DEFAULT = defaultsOf(alertSettingsSchema);

/** Fields of a retry-strategy object the service fills when they are absent. */
export const RETRY_STRATEGY_OBJECT_DEFAULTS = defaultsOf(retryStrategyObjectSchema);

export const ENVIRONMENT_VARIABLE_DEFAULTS = defaultsOf(environmentVariableSchema);
export const SUBSCRIPTION_DEFAULTS = defaultsOf(checkGroupAlertChannelSubscriptionSchema);

/** The documented create defaults of a check group (spec + addendum §3), as its schema declares them. */
export const CHECK_GROUP_DEFAULTS = defaultsOf(checkGroupCreateSchema);

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
