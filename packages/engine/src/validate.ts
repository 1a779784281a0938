import type { Diagnostic } from '@monitor/constructs';
import { ProjectLoadError } from './errors.js';
import { type LoadedProject, type LoadOptions, load } from './load.js';

export interface ValidationReport {
  /** True when there is no error (warnings allowed). */
  valid: boolean;
  /** The loaded project; undefined when it could not be loaded at all. */
  project: LoadedProject | undefined;
  /** The config file, when one was found. */
  configPath: string | undefined;
  diagnostics: Diagnostic[];
}

/**
 * Load and validate a project. Problems in the project (syntax errors, missing packages, files
 * that throw, a bad config, invalid constructs) come back as diagnostics; anything else throws.
 */
export async function validateProject(options: LoadOptions = {}): Promise<ValidationReport> {
  try {
    const project = await load(options);
    return {
      valid: project.diagnostics.every((d) => d.severity !== 'error'),
      project,
      configPath: project.configPath,
      diagnostics: project.diagnostics,
    };
  } catch (e) {
    if (e instanceof ProjectLoadError) {
      const { hint } = e;
      const diagnostics =
        hint === undefined
          ? e.diagnostics
          : e.diagnostics.map((d) => (d.hint === undefined ? { ...d, hint } : d));
      return { valid: false, project: undefined, configPath: e.configPath, diagnostics };
    }
    throw e;
  }
}
