import { createRequire } from 'node:module';

/**
 * esbuild, with its service process started. The first build of a run waits ~60 ms for that
 * process; `startEsbuildService()` starts it early (the CLI calls it before loading the engine) so that
 * the wait overlaps with loading modules. Loaded when a project is, never when the CLI starts.
 */
let started: Promise<typeof import('esbuild')> | undefined;

export function esbuildService(): Promise<typeof import('esbuild')> {
  started ??= (async () => {
    // esbuild is CommonJS: `require` loads it in ~18 ms, `import()` in ~45 ms (Node scans a
    // CommonJS module's source for its export names before an ESM import may link to it).
    const esbuild = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
    // Starts the service now rather than on the first build; a no-op wait otherwise.
    await esbuild.initialize({}).catch(() => undefined);
    return esbuild;
  })();
  return started;
}

/** Start esbuild's service in the background, for a command that is about to load a project. */
export function startEsbuildService(): void {
  esbuildService().catch(() => undefined);
}
