import { afterEach } from 'vitest';
import { cleanup, emulatorForTests, monitor, writeProject } from './harness.js';

export type Harness = Awaited<ReturnType<typeof emulatorForTests>>;

export const IMPORTS = `import { CheckGroup, EmailAlertChannel, StatusPage, StatusPageService } from '@monitor/constructs';\n`;

/**
 * `setup(files)`: a project and an emulator on port 0, and `run` for the CLI against them; both are
 * removed after each test of the file that called this.
 */
export function projectsUnderTest() {
  const open: { dirs: string[]; harnesses: Harness[] } = { dirs: [], harnesses: [] };
  afterEach(async () => {
    for (const h of open.harnesses.splice(0)) await h.close();
    for (const d of open.dirs.splice(0)) cleanup(d);
  });
  return async function setup(
    files: Record<string, string>,
    options: Parameters<typeof emulatorForTests>[0] = {},
  ) {
    const h = await emulatorForTests(options);
    const dir = writeProject(files);
    open.harnesses.push(h);
    open.dirs.push(dir);
    const run = (...args: string[]) => monitor(args, { cwd: dir, env: h.env });
    return { h, dir, run };
  };
}

/** A project with a config and a tsconfig, and no construct file yet. */
export function emptyProject(name: string, files: Record<string, string> = {}): string {
  return writeProject(
    {
      'monitor.config.ts': `import { defineConfig } from '@monitor/constructs';\nexport default defineConfig({ projectName: '${name}', include: ['monitors/**/*.monitor.ts'] });\n`,
      'tsconfig.json': JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'preserve',
          moduleResolution: 'bundler',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
        },
        include: ['monitor.config.ts', 'monitors/**/*.ts'],
      }),
      ...files,
    },
    name,
  );
}
