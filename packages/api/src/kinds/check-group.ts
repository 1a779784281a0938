import { fieldName, type KindDefinition } from './definition.js';
import { KIND_FACTS } from './schemas-link.js';
import { withSchemas } from './with-schemas.js';

/** Defaults of a group's `apiCheckDefaults`; fields left out of a sent object take these. */
export const API_CHECK_DEFAULTS_DEFAULT = KIND_FACTS.defaults.API_CHECK_DEFAULTS_DEFAULT;

/** Defaults of a group's `alertSettings`. */
export const ALERT_SETTINGS_DEFAULT = KIND_FACTS.defaults.ALERT_SETTINGS_DEFAULT;

/** Fields of a retry-strategy object the service fills when they are absent. */
export const RETRY_STRATEGY_OBJECT_DEFAULTS = KIND_FACTS.defaults.RETRY_STRATEGY_OBJECT_DEFAULTS;

export const ENVIRONMENT_VARIABLE_DEFAULTS = KIND_FACTS.defaults.ENVIRONMENT_VARIABLE_DEFAULTS;
export const SUBSCRIPTION_DEFAULTS = KIND_FACTS.defaults.SUBSCRIPTION_DEFAULTS;

/** The documented create defaults of a check group (spec + addendum §3), as its schema declares them. */
export const CHECK_GROUP_DEFAULTS = KIND_FACTS.defaults.CHECK_GROUP_DEFAULTS;

export const checkGroupKind: KindDefinition = withSchemas('CheckGroup', {
  noun: 'check group',
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
});
