export { type Bundle, BundleError, bundle } from './bundle.js';
export {
  CONFIG_FILE_NAMES,
  configSchema,
  DEFAULT_INCLUDE,
  findConfig,
  type ResolvedConfig,
} from './config-file.js';
export { EngineError, type EngineErrorCode, ProjectLoadError } from './errors.js';
export { type LoadedProject, type LoadOptions, load, mapStack } from './load.js';
export { type OriginalPosition, SourceMap } from './source-map.js';
export { type ValidationReport, validateProject } from './validate.js';
