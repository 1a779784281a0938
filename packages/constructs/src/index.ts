export {
  AlertChannel,
  type AlertChannelRef,
  type AlertChannelSwitches,
  EmailAlertChannel,
  type EmailAlertChannelProps,
  OpsgenieAlertChannel,
  type OpsgenieAlertChannelProps,
  PagerdutyAlertChannel,
  type PagerdutyAlertChannelProps,
  type PhoneAlertChannelProps,
  PhoneCallAlertChannel,
  SlackAlertChannel,
  type SlackAlertChannelProps,
  SlackAppAlertChannel,
  type SlackAppAlertChannelProps,
  SmsAlertChannel,
  WebhookAlertChannel,
  type WebhookAlertChannelProps,
} from './alert-channels.js';
export {
  type AlertChannelSubscriptionProps,
  CheckGroup,
  type CheckGroupProps,
  type EnvironmentVariableProps,
} from './check-group.js';
export {
  defineConfig,
  type EnvironmentConfig,
  type MonitorConfig,
  type ProjectDefaults,
} from './config.js';
export {
  Construct,
  type ConstructOptions,
  type DesiredResource,
  type Diagnostic,
  type FileRef,
  isPayloadRef,
  isProjectPayloadRef,
  type PayloadRef,
  type ProjectConstructRef,
  type ProjectPayloadRef,
  projectUseKey,
  type RemoteRef,
  type ResolvedOptions,
  refKey,
  replaceRefs,
  type SynthContext,
} from './construct.js';
export { Dashboard, type DashboardProps } from './dashboard.js';
export { requiredEnv } from './env.js';
export {
  MaintenanceWindow,
  type MaintenanceWindowProps,
  type StatusPageVisibilityProps,
} from './maintenance-window.js';
export {
  type ConstructPolicy,
  definePolicy,
  type KindResource,
  type PlanPolicy,
  type PlanPolicyViolation,
  type Policy,
  type PolicyConflict,
  type PolicyException,
  type PolicyOperation,
  type PolicyPayloads,
  type PolicyPlan,
  type PolicyProject,
  type PolicyRef,
  type PolicyResource,
  type PolicyResourceOf,
  type PolicySeverity,
  type PolicyViolation,
} from './policy.js';
export {
  type ChannelExpectation,
  type ExpectedChannel,
  expectRoutes,
  isRoutingTest,
  ROUTED_EVENTS,
  type RouteAssertion,
  type RoutedChannel,
  type RoutedEvent,
  type RouteExpectations,
  type RoutingTest,
  type RoutingTestProblem,
} from './routing-tests.js';
export {
  type ConstructLike,
  closeSession,
  createSession,
  currentEnvironment,
  currentSession,
  isConstruct,
  isProjectConstructRef,
  isRemote,
  type ResourceKind,
  type Session,
  type SourceLocation,
} from './session.js';
export {
  type ConstructSource,
  isSourceRef,
  type KindSource,
  type PropTarget,
  propOf,
  type SourceRef,
  sourceRef,
  topField,
} from './source.js';
export { CONSTRUCT_SOURCES } from './sources.js';
export {
  StatusPage,
  type StatusPageCardProps,
  type StatusPageProps,
  type StatusPageRef,
  StatusPageService,
  type StatusPageServiceProps,
  type StatusPageServiceRef,
} from './status-page.js';
export {
  LOGICAL_ID_PATTERN,
  type SynthOptions,
  type SynthResult,
  synth,
  type ValidatedPayloads,
} from './synth.js';
export { defineWorkspace, type MonitorWorkspace } from './workspace.js';
