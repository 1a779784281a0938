// The package entry `@monitor/engine/validate`: loading and validating a project, without the rest
// of the engine (planning, applying, state, rendering) or the API client, which `monitor validate`
// never runs. The index exports the same, from the same modules.
export type { LoadedProject, LoadOptions, ProjectConfig } from './load/load.js';
export { type ValidationReport, validateProject } from './load/validate.js';
