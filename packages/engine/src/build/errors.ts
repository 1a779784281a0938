import type { Diagnostic } from '@monitor/constructs';

/** The project does not build: esbuild's errors, each a diagnostic at its place in the source. */
export class BundleError extends Error {
  readonly diagnostics: Diagnostic[];
  constructor(diagnostics: Diagnostic[]) {
    super(`the project does not build: ${diagnostics.length} error(s)`);
    this.diagnostics = diagnostics;
  }
}
