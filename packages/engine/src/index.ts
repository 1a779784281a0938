export type { ApplyEvent, ApplyResult, OperationResult, OperationStatus } from './apply/apply.js';
export { findProjectDir, requireEnvironment } from './config-file.js';
export {
  ConfigNotFoundError,
  EngineError,
  type EngineErrorCode,
  EnvironmentRequiredError,
  InvalidPlanError,
  InvalidStateError,
  ProjectLoadError,
  StateStorageError,
} from './errors.js';
export {
  type AccountSnapshot,
  type ApplyFlowOptions,
  type ApplyOutcome,
  type Consent,
  type DeployOptions,
  type DestroyOptions,
  type DiffOptions,
  type DiffResult,
  deploy,
  destroy,
  diff,
  type FlowEvent,
  readAccount,
  type Target,
} from './flows.js';
export {
  type ImportedResource,
  type ImportFilters,
  type ImportOptions,
  type ImportPlan,
  type ImportSecret,
  planImport,
  type RecoveredResource,
} from './import/import.js';
export { isRefValue, isSecretValue, type PropValue } from './import/to-props.js';
export { readLive } from './live.js';
export { type LoadedProject, type LoadOptions, load, loadConfig, type ProjectConfig } from './load.js';
export { type LostState, lostState, lostStateCandidate } from './lost-state.js';
export type { Change } from './plan/diff.js';
export type {
  Conflict,
  CreateOperation,
  DeleteOperation,
  Operation,
  Plan,
  PlanMode,
  UpdateOperation,
} from './plan/plan.js';
export {
  GITHUB_COMMENT_LIMIT,
  type MarkdownOptions,
  renderApplyMarkdown,
  renderPlanMarkdown,
} from './render/markdown.js';
export {
  ACTION_SYMBOL,
  describeConflict,
  hasChanges,
  PLAIN,
  type PlanJson,
  planToJson,
  renderPlanText,
  type Style,
  summaryLine,
} from './render/render.js';
export { parseSavedPlan, SAVED_PLAN_FORMAT_VERSION, type SavedPlan } from './saved-plan.js';
export type { LockRequest, PendingChanges, StateBackend, StateChanges } from './state/backend.js';
export { FileStateBackend, type StateFs } from './state/file-store.js';
export { describeHolder, LockHeldError, type LockHolder } from './state/lock.js';
export { type OpenStateOptions, openStateBackend } from './state/open.js';
export { type PostgresBackendOptions, PostgresStateBackend, redactUrl } from './state/postgres-store.js';
export {
  emptyState,
  parseStateText,
  type State,
  type StateEntry,
  serializeState,
  stateKey,
} from './state/state.js';
export { type ValidationReport, validateProject } from './validate.js';
