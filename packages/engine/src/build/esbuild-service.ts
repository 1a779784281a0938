import { createRequire } from 'node:module';

/**
 * esbuild, with its service process started. The first build of a run waits ~60 ms for that
 * process; a build the CLI starts early (`prefetchProject`, before loading the engine) starts it
 * then, so that the wait overlaps with loading modules. Loaded only when a project is built (not
 * when its builds are all in the project's cache), never when the CLI starts.
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
