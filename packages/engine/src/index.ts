export type {
  ApplyEvent,
  ApplyResult,
  OneTimeValue,
  OperationResult,
  OperationStatus,
} from './apply/apply.js';
export {
  type AuditCounts,
  type AuditFinding,
  type AuditReport,
  actionable,
  auditAccount,
} from './audit/audit.js';
export type { AuditedResource, Unreadable } from './audit/live-constructs.js';
export type { Ownership } from './audit/ownership.js';
// Running checks and waiting for them: the same names as the `@monitor/engine/checks` entry.
export * from './checks.js';
export {
  ConfigNotFoundError,
  EngineError,
  type EngineErrorCode,
  EnvironmentRequiredError,
  FileSystemError,
  fileSystemError,
  InvalidPlanError,
  InvalidStateError,
  ProjectLoadError,
  StateStorageError,
  StateUrlError,
} from './errors.js';
export { type AuditOptions, type AuditResult, audit } from './flows/audit.js';
export {
  type ApplyFlowOptions,
  type ApplyOutcome,
  type Consent,
  type DeployOptions,
  type DeployVerification,
  type DestroyOptions,
  deploy,
  destroy,
  type FlowEvent,
  type MissingConsent,
  type StandingConsent,
  standingConsent,
  type VerifyEvent,
} from './flows/deploy.js';
export { type DiffOptions, type DiffResult, diff, type Scope } from './flows/diff.js';
export {
  ImportFailedError,
  ImportFilterError,
  NothingToVerifyError,
  OwnedElsewhereError,
  StaleStateError,
  StateEditError,
  WrongServiceError,
} from './flows/errors.js';
export {
  type ImportEvent,
  type ImportFile,
  type ImportFlowOptions,
  type ImportOutcome,
  type ImportSelection,
  importDestination,
  importResources,
  kindsNamed,
} from './flows/import.js';
export { type LockEvent, type LockedFlowOptions, lockedFlow } from './flows/locked.js';
export { type LostState, lostState, lostStateCandidate } from './flows/lost-state.js';
export { outputs, type ResourceOutput } from './flows/outputs.js';
export {
  type PlacedNotPulled,
  type PulledFile,
  type PullOptions,
  type PullResult,
  PullSyntaxError,
  type PullWriteOptions,
  type PullWritten,
  pullEdits,
  type UnseenSecrets,
  uncommittedFiles,
  writePull,
} from './flows/pull.js';
export {
  planRouting,
  projectRoutes,
  type RoutesOptions,
  type RoutingSource,
  upcomingMaintenance,
} from './flows/routes.js';
export { accountRoutingTests } from './flows/routing-tests.js';
export {
  findEntry,
  listState,
  migrateState,
  moveEntry,
  type PushOptions,
  planRebind,
  pullState,
  pushState,
  type Rebind,
  type RebindConsent,
  type RebindEntry,
  rebindState,
  removeEntry,
  type StateListing,
  type StateTarget,
  showEntry,
} from './flows/state-edits.js';
export {
  type AccountSnapshot,
  checkService,
  LOCAL_SERVICE,
  readAccount,
  serviceIdentity,
  type Target,
} from './flows/target.js';
export {
  type VerifyProjectOptions,
  verifyGroups,
  verifyProject,
} from './flows/verify.js';
export { ByPhysicalId, type PhysicalId } from './identity.js';
export {
  type ImportedResource,
  type ImportFilters,
  type ImportOptions,
  type ImportPlan,
  type ImportSecret,
  planImport,
  type RecoveredResource,
} from './import/import.js';
export { isRefValue, isSecretValue, type PropValue } from './import/values.js';
export { readLive } from './live/read-live.js';
export { findProjectDir, requireEnvironment } from './load/config-file.js';
export { localAccountDir } from './load/config-location.js';
export {
  type LoadedProject,
  type LoadOptions,
  load,
  loadConfig,
  type ProjectConfig,
  projectResponses,
} from './load/load.js';
export { type OpenStateOptions, openStateBackend, stateBackendAt } from './load/open-state.js';
export { type ValidationReport, validateProject } from './load/validate.js';
export { describeConflict } from './plan/conflict-text.js';
export type { Change } from './plan/diff.js';
export { TargetError } from './plan/errors.js';
export type {
  Conflict,
  CreateOperation,
  DeleteOperation,
  Operation,
  Plan,
  PlanMode,
  UpdateOperation,
} from './plan/plan.js';
export { type PlanJson, type PrintedPlanJson, planToJson, planToPrintedJson } from './plan/plan-json.js';
export { deletionCount, hasChanges, hasWork } from './plan/queries.js';
export { describeIdentity } from './plan/resource.js';
export { parseSavedPlan, SAVED_PLAN_FORMAT_VERSION, type SavedPlan } from './plan/saved-plan.js';
export type { Live } from './plan/types.js';
export { BUILT_IN_POLICIES } from './policy/builtins.js';
export { blockingFindings } from './policy/run.js';
export type { ManualEdit, NotPulled, PulledEdit } from './pull/types.js';
export { auditTotals, renderAuditMarkdown, renderAuditText } from './render/audit.js';
export { renderRoutesDot } from './render/dot.js';
export {
  escapeMarkdown,
  escapeTerminal,
  markdownCode,
  markdownFence,
  markdownLink,
} from './render/escape.js';
export {
  GITHUB_COMMENT_LIMIT,
  type MarkdownOptions,
  renderApplyMarkdown,
  renderPlanMarkdown,
} from './render/markdown.js';
export { renderRoutesMermaid } from './render/mermaid.js';
export {
  NOT_PULLED_REASONS,
  type PullRequestMarkdownOptions,
  pullLeftMarkdown,
  renderPullRequestMarkdown,
} from './render/pull-request.js';
export { ACTION_SYMBOL, renderPlanText, summaryLine } from './render/render.js';
export { PLAIN, type Style } from './render/style.js';
export {
  renderVerificationMarkdown,
  renderVerificationText,
  verdictMark,
  verificationSummary,
} from './render/verification.js';
export type { RouteChange, RoutingChanges } from './routing/changes.js';
export type { AlertKind } from './routing/channels.js';
export { UnknownGroupError } from './routing/errors.js';
export { maintenanceCalendar } from './routing/ics.js';
export type {
  AffectedGroup,
  MaintenanceSchedule,
  Overlap,
  UpcomingWindow,
  WindowEffect,
} from './routing/maintenance.js';
export {
  PICTURE_MAX_NODES,
  type PictureEdge,
  type PictureNode,
  picturedRoutes,
  type RoutePicture,
} from './routing/picture.js';
export {
  type Escalation,
  type GroupRoute,
  type OccurrenceView,
  routeLine,
  type Silencing,
  type SubscriptionRoute,
} from './routing/routes.js';
export { userTimeZone } from './routing/time-zone.js';
export { ROUTING_TEST, routingTestFindings } from './routing-tests/findings.js';
export {
  judgeAgainstCode,
  type ReachedChannel,
  type RoutingTestResult,
  type RoutingTestStatus,
} from './routing-tests/judge.js';
export type { LockRequest, PendingChanges, StateBackend, StateChanges } from './state/backend.js';
export { LockHeldError } from './state/errors.js';
export { FileStateBackend, type StateFs } from './state/file-store.js';
export { withStateLock } from './state/lock.js';
export { type ClearedLock, describeHolder, type LockHolder } from './state/lock-holder.js';
export type { OtherProjects } from './state/other-projects.js';
export { type PostgresBackendOptions, PostgresStateBackend, redactUrl } from './state/postgres-store.js';
export {
  emptyState,
  type IntegrityProblem,
  integrityProblems,
  parseStateText,
  type State,
  type StateEntry,
  serializeState,
  stateKey,
} from './state/state.js';
export {
  type Baseline,
  type CheckBefore,
  groupsChangedBy,
  ownedGroups,
  readBaseline,
} from './verify/baseline.js';
export type { CheckRun, Failure, GroupToVerify, RootCause, VerificationReport } from './verify/report.js';
export { failedRuns, failsVerification, type Verdict } from './verify/verdict.js';
export { affectedProjects, changedFiles, type ProjectFiles } from './workspace/changed.js';
export {
  ChangedFilesError,
  InvalidWorkspaceError,
  ProjectCycleError,
  UnknownProjectError,
  WorkspaceNotFoundError,
} from './workspace/errors.js';
export { projectInputs } from './workspace/inputs.js';
export {
  dependenciesOf,
  dependencyOrder,
  findCycle,
  type ProjectDependencies,
  withDependents,
} from './workspace/order.js';
export { type StateDirs, workspaceProjectStates, workspaceStateDirs } from './workspace/project-states.js';
export { isProjectRef, type ProjectRef, referencedProjects } from './workspace/references.js';
export { namedProjects } from './workspace/select.js';
export {
  findWorkspace,
  readWorkspace,
  type Workspace,
  type WorkspaceProject,
} from './workspace/workspace.js';
