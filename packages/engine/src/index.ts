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
export { type LoadedProject, type LoadOptions, load, mapStack } from './load.js';
export { type Change, type DiffContext, diffPayload } from './plan/diff.js';
export {
  appliedHash,
  type CreateOperation,
  type DeleteOperation,
  type Live,
  type LiveResource,
  type Operation,
  PLAN_FORMAT_VERSION,
  type Plan,
  type PlanOptions,
  plan,
  resolveRefs,
  secretValues,
  type UpdateOperation,
} from './plan/plan.js';
export { KIND_RULES, type KindRules, liveNaturalKey } from './plan/rules.js';
export { type OriginalPosition, SourceMap } from './source-map.js';
export { FileStateStore, type StateStore } from './state/file-store.js';
export { acquireLock, LockHeldError, type LockHolder, type LockOptions } from './state/lock.js';
export {
  emptyState,
  STATE_FORMAT_VERSION,
  type State,
  type StateEntry,
  serializeState,
  stateKey,
  stateSchema,
} from './state/state.js';
export { type ValidationReport, validateProject } from './validate.js';
