// What synthesis, validation and policies need of the service's kinds, without the client: their
// definitions and defaults, which fields are secrets and how a message keeps them out. The
// package's index exports the same (from the same modules), and the client besides: a run that
// only loads a project (`monitor validate`) does not load or build the client's code and the
// schemas of the other endpoints.

export { CodedError } from './coded-error.js';
export { formatIssuePath } from './issue-path.js';
export { ALERT_CHANNEL_DEFAULTS, ALERT_CHANNEL_TYPE_DEFINITIONS } from './kinds/alert-channel.js';
export {
  ALERT_SETTINGS_DEFAULT,
  API_CHECK_DEFAULTS_DEFAULT,
  CHECK_GROUP_DEFAULTS,
  ENVIRONMENT_VARIABLE_DEFAULTS,
  RETRY_STRATEGY_OBJECT_DEFAULTS,
  SUBSCRIPTION_DEFAULTS,
} from './kinds/check-group.js';
export { DASHBOARD_DEFAULTS } from './kinds/dashboard.js';
export type {
  KindDefinition,
  KindOperations,
  NaturalKey,
  OneTimeField,
  Reference,
  ResourceKind,
  SensitivePath,
} from './kinds/definition.js';
export { naturalKeyOf, valuesAt } from './kinds/definition.js';
export { fieldPaths, fieldsOf, isFieldPath, rulePathOf } from './kinds/fields.js';
export { isResourceKind, KINDS, RESOURCE_KINDS } from './kinds/index.js';
export { MAINTENANCE_WINDOW_DEFAULTS, STATUS_PAGE_VISIBILITY_DEFAULTS } from './kinds/maintenance-window.js';
export { kindSchemasReady } from './kinds/schema-registry.js';
export {
  isRecord,
  isSensitive,
  redactPayload,
  replaceSensitive,
  SENSITIVE_VALUE,
  sensitiveFields,
  sensitiveValues,
} from './kinds/secrets.js';
export { STATUS_PAGE_DEFAULTS, STATUS_PAGE_SERVER_DEFAULTS } from './kinds/status-page.js';
export { editDistance, nearest } from './nearest.js';
export { describeSensitive, messageRedactor, Redactor } from './redact.js';
export type { AlertChannelType } from './schemas/common.js';
export type { ThemeColors } from './schemas/status-pages.js';
