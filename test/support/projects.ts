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
