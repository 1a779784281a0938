import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, envelopeOf, monitor } from './support/harness.js';

// Inside the repository, so that @monitor/constructs resolves as it does for a user who ran npm install.
const TMP = fileURLToPath(new URL('./.tmp/', import.meta.url));
mkdirSync(TMP, { recursive: true });
const root = mkdtempSync(join(TMP, 'init-'));
afterAll(() => cleanup(root));

const noAccount = { MONITOR_API_KEY: '', MONITOR_ACCOUNT_ID: '', MONITOR_BASE_URL: '' };
const run = (cwd: string, ...args: string[]) => monitor(args, { cwd, env: noAccount });
const read = (...path: string[]) => readFileSync(join(...path), 'utf8');

describe('monitor init', () => {
  it('scaffolds a project that validates and deploys to the emulator as it is, and prints the next commands', async () => {
    const result = await run(root, 'init', 'payments-monitoring', '--ci', 'github');
    expect(result.code, result.stderr).toBe(0);
    const dir = join(root, 'payments-monitoring');
    for (const file of [
      'monitor.config.ts',
      'tsconfig.json',
      'package.json',
      '.gitignore',
      'monitors/example.monitor.ts',
      '.github/workflows/monitor-preview.yml',
      '.github/workflows/monitor-deploy.yml',
      '.github/workflows/monitor-drift.yml',
    ]) {
      expect(result.stdout).toContain(`created  ${file}`);
      expect(existsSync(join(dir, file)), file).toBe(true);
    }
    expect(result.stdout).toContain(
      'Next:\n\n  cd payments-monitoring\n  npm install\n  npx monitor validate\n  npx monitor deploy --local --yes\n',
    );
    expect(read(dir, 'monitor.config.ts')).toContain("projectName: 'payments-monitoring'");
    expect(JSON.parse(read(dir, 'package.json')).dependencies).toHaveProperty('@monitor/constructs');
    expect(read(dir, '.gitignore')).toContain('.monitor/local/');
    // The workflows are examples/ci's, as tested there.
    expect(read(dir, '.github/workflows/monitor-preview.yml')).toBe(
      read(fileURLToPath(new URL('../examples/ci/github/monitor-preview.yml', import.meta.url))),
    );

    const validate = await run(dir, 'validate');
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stdout).toContain('2 constructs valid in 1 file');
    const deploy = await run(dir, 'deploy', '--local', '--yes');
    expect(deploy.code, deploy.stderr).toBe(0);
    expect((await run(dir, 'diff', '--local', '--detailed-exitcode')).code).toBe(0);
  });

  it('inside an existing repository keeps every file, and only adds what package.json and .gitignore lack', async () => {
    const dir = mkdtempSync(join(root, 'existing-'));
    const config =
      "import { defineConfig } from '@monitor/constructs';\nexport default defineConfig({ projectName: 'mine' });\n";
    writeFileSync(join(dir, 'monitor.config.ts'), config);
    writeFileSync(
      join(dir, 'package.json'),
      `${JSON.stringify({ name: 'app', dependencies: { react: '^19.0.0' } }, null, 2)}\n`,
    );
    writeFileSync(join(dir, '.gitignore'), 'dist\nnode_modules\n');
    const first = await run(dir, 'init', '--ci', 'gitlab', '--json');
    expect(first.code).toBe(0);
    const { result } = envelopeOf(first);
    expect(result.kept).toEqual(['monitor.config.ts']);
    expect(result.changed).toEqual(['package.json', '.gitignore']);
    expect(result.created).toEqual(['tsconfig.json', 'monitors/example.monitor.ts', '.gitlab-ci.yml']);
    expect(read(dir, 'monitor.config.ts')).toBe(config);
    expect(JSON.parse(read(dir, 'package.json'))).toMatchObject({
      name: 'app',
      dependencies: {
        react: '^19.0.0',
        '@monitor/cli': expect.any(String),
        '@monitor/constructs': expect.any(String),
      },
    });
    expect(read(dir, '.gitignore')).toBe('dist\nnode_modules\n.monitor/local/\n');

    const again = envelopeOf(await run(dir, 'init', '--json')).result;
    expect(again.created).toEqual([]);
    expect(again.changed).toEqual([]);
  });

  it('refuses a target that is a file, and a name that cannot be a project name', async () => {
    writeFileSync(join(root, 'a-file'), 'x');
    const file = await run(root, 'init', 'a-file');
    expect(file.code).toBe(1);
    expect(file.stderr).toContain('is a file, not a directory');
    const name = await run(root, 'init', 'named', '--name', 'no spaces please');
    expect(name.code).toBe(1);
    expect(name.stderr).toContain('--name "no spaces please" is not a project name');
    expect(existsSync(join(root, 'named'))).toBe(false);
  });
});
