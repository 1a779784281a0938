export {
  type ApplyEvent,
  type ApplyOptions,
  type ApplyResult,
  apply,
  type OperationResult,
  type OperationStatus,
} from './apply/apply.js';
export { type Bundle, BundleError, bundle } from './bundle.js';
export {
  CONFIG_FILE_NAMES,
  configSchema,
  DEFAULT_INCLUDE,
  findConfig,
  type ResolvedConfig,
} from './config-file.js';
export { EngineError, type EngineErrorCode, ProjectLoadError } from './errors.js';
export { canonicalJson, hashJson, hashSecret } from './hash.js';
export { readKind, readLive } from './live.js';
export { type LoadedProject, type LoadOptions, load, mapStack } from './load.js';
export { type Change, type DiffContext, diffPayload } from './plan/diff.js';
export {
  appliedHash,
  type CreateOperation,
  type DeleteOperation,
  type Live,
  type LiveResource,
  naturalKeyOf,
  type Operation,
  PLAN_FORMAT_VERSION,
  type Plan,
  type PlanOptions,
  plan,
  resolveRefs,
  secretValues,
  summarize,
  type UpdateOperation,
} from './plan/plan.js';
export {
  ACTION_SYMBOL,
  hasChanges,
  type PlanJson,
  planToJson,
  renderPlanText,
  type Style,
  style,
  summaryLine,
} from './render/render.js';
export {
  checkSavedPlan,
  parseSavedPlan,
  SAVED_PLAN_FORMAT_VERSION,
  type SavedPlan,
  savePlan,
} from './saved-plan.js';
export { type OriginalPosition, SourceMap } from './source-map.js';
export { FileStateStore, type StateChanges, type StateStore } from './state/file-store.js';
export {
  acquireLock,
  describeHolder,
  LockHeldError,
  type LockHolder,
  type LockOptions,
} from './state/lock.js';
export {
  emptyState,
  STATE_FORMAT_VERSION,
  type State,
  type StateEntry,
  serializeState,
  stateEntrySchema,
  stateKey,
  stateSchema,
} from './state/state.js';
export { type ValidationReport, validateProject } from './validate.js';
