import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Io, main } from '@monitor/cli';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { execFileInTest } from './support/children.js';
import { cleanup, envelopeOf, monitor } from './support/harness.js';
import { offlineLock } from './support/offline-lock.js';

// Inside the repository, so that @monitor/constructs resolves as it does for a user who ran npm install.
const TMP = fileURLToPath(new URL('./.tmp/', import.meta.url));
const REPO = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
mkdirSync(TMP, { recursive: true });
const root = mkdtempSync(join(TMP, 'init-'));
afterAll(() => cleanup(root));

const noAccount = { MONITOR_API_KEY: '', MONITOR_ACCOUNT_ID: '', MONITOR_BASE_URL: '' };
const run = (cwd: string, ...args: string[]) => monitor(args, { cwd, env: noAccount });
const read = (...path: string[]) => readFileSync(join(...path), 'utf8');
/** The tarballs init vendors from this checkout, as package.json names them. */
const VENDORED = ['api', 'constructs', 'engine', 'emulator', 'cli'].map(
  (p) => `vendor/monitor-${p}-0.1.0.tgz`,
);
const vendoredDependencies = Object.fromEntries(
  VENDORED.map((path) => [
    `@monitor/${path.replace(/^vendor\/monitor-|-0\.1\.0\.tgz$/g, '')}`,
    `file:${path}`,
  ]),
);

describe('monitor init', () => {
  it('scaffolds a project that validates and deploys to the emulator as it is, and prints the next commands', async () => {
    const result = await run(root, 'init', 'payments-monitoring', '--ci', 'github', '--state', 'postgres');
    expect(result.code, result.stderr).toBe(0);
    const dir = join(root, 'payments-monitoring');
    for (const file of [
      'monitor.config.ts',
      'tsconfig.json',
      'package.json',
      '.gitignore',
      'monitors/example.monitor.ts',
      ...VENDORED,
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
    // From a checkout, not a registry: the project carries the packages, and TypeScript is a range.
    const pkg = JSON.parse(read(dir, 'package.json'));
    expect(pkg.dependencies).toEqual(vendoredDependencies);
    expect(pkg.devDependencies).toEqual({ typescript: '~5.9.3' });
    expect(result.stdout).toContain(
      `monitor comes from the monitor checkout at ${REPO}, not from a registry.\n` +
        'vendor/ holds its 5 packages (npm pack tarballs): the project installs wherever it is copied, CI included. Commit vendor/ with it.\n',
    );
    expect(result.stderr).toBe('');
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
    const first = await run(dir, 'init', '--ci', 'gitlab', '--state', 'file', '--json');
    expect(first.code).toBe(0);
    const { result } = envelopeOf(first);
    expect(result.kept).toEqual(['monitor.config.ts']);
    expect(result.changed).toEqual(['package.json', '.gitignore']);
    expect(result.created).toEqual([
      'tsconfig.json',
      'monitors/example.monitor.ts',
      ...VENDORED,
      '.gitlab-ci.yml',
    ]);
    expect(result.vendored).toEqual(VENDORED);
    expect(result.warnings).toEqual([]);
    expect(read(dir, 'monitor.config.ts')).toBe(config);
    expect(JSON.parse(read(dir, 'package.json'))).toEqual({
      name: 'app',
      dependencies: { react: '^19.0.0', ...vendoredDependencies },
      devDependencies: { typescript: '~5.9.3' },
    });
    expect(read(dir, '.gitignore')).toBe('dist\nnode_modules\n.monitor/local/\n');

    const again = envelopeOf(await run(dir, 'init', '--json')).result;
    expect(again.created).toEqual([]);
    expect(again.changed).toEqual([]);
    expect(again.kept).toEqual(expect.arrayContaining(VENDORED));
  });

  it('a copy of the project moved elsewhere, as a CI checkout is, installs with npm ci with no access to the checkout, and validates', async () => {
    // Outside the repository, so that nothing resolves from the workspace's node_modules.
    const outside = mkdtempSync(join(tmpdir(), 'monitor-init-moved-'));
    try {
      const made = await run(outside, 'init', 'ops', '--ci', 'github', '--state', 'postgres');
      expect(made.code, made.stderr).toBe(0);
      // Moved: a path of the project that pointed outside it no longer leads anywhere.
      const dir = join(outside, 'runner', 'work', 'ops');
      mkdirSync(join(dir, '..'), { recursive: true });
      renameSync(join(outside, 'ops'), dir);
      const pkg = JSON.parse(read(dir, 'package.json'));
      const specs = Object.values({ ...pkg.dependencies, ...pkg.devDependencies }) as string[];
      expect(specs.filter((spec) => spec.startsWith('file:') && !spec.startsWith('file:vendor/'))).toEqual(
        [],
      );

      // npm ci needs the lock `npm install` writes, which the project commits; with no registry
      // here, it is the one that pins every package as this repository's lock does, so that npm
      // installs from the cache alone (--offline: a request to any registry fails the install).
      const tarballs = Object.fromEntries(
        readdirSync(join(dir, 'vendor')).map((f) => [
          `@monitor/${f.replace(/^monitor-/, '').replace(/-\d+\.\d+\.\d+\.tgz$/, '')}`,
          join(dir, 'vendor', f),
        ]),
      );
      const lock = offlineLock(REPO, tarballs, 'ops', {
        dir: 'vendor',
        devDependencies: pkg.devDependencies,
      });
      writeFileSync(join(dir, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
      await execFileInTest('npm', ['ci', '--offline'], {
        cwd: dir,
        env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' },
      });
      // The packages are installed from the project's own tarballs, not linked to the checkout.
      expect(lstatSync(join(dir, 'node_modules/@monitor/cli')).isSymbolicLink()).toBe(false);
      expect(existsSync(join(dir, 'node_modules/@monitor/cli/dist/bin.js'))).toBe(true);

      const validate = await execFileInTest(join(dir, 'node_modules/.bin/monitor'), ['validate'], {
        cwd: dir,
        env: { ...process.env, ...noAccount, NO_COLOR: '1', CI: 'true' },
      });
      expect(validate.stdout).toContain('✓ ops: 2 constructs valid in 1 file');
      // The project's typecheck script: TypeScript from the registry's range, and the vendored types.
      await execFileInTest(join(dir, 'node_modules/.bin/tsc'), [], { cwd: dir });
    } finally {
      cleanup(outside);
    }
  });

  it('--no-vendor links the checkout where it is, and says that the project installs on this machine only', async () => {
    const dir = mkdtempSync(join(root, 'linked-'));
    const result = await run(dir, 'init', '--no-vendor', '--ci', 'github', '--state', 'file');
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(join(dir, 'vendor'))).toBe(false);
    const pkg = JSON.parse(read(dir, 'package.json'));
    expect(pkg.dependencies).toEqual({
      '@monitor/cli': `file:${relative(dir, join(REPO, 'packages/cli'))}`,
      '@monitor/constructs': `file:${relative(dir, join(REPO, 'packages/constructs'))}`,
    });
    expect(pkg.devDependencies).toEqual({
      typescript: `file:${relative(dir, join(REPO, 'node_modules/typescript'))}`,
    });
    expect(result.stdout).toContain(`monitor comes from the monitor checkout at ${REPO}.\n`);
    expect(result.stderr).toBe(
      "warning: package.json depends on @monitor/cli, @monitor/constructs, typescript at paths outside the project: it installs on this machine only, and the CI workflows fail at npm ci on a runner. To carry monitor's packages in the project (vendor/), remove those dependencies and run monitor init again without --no-vendor\n",
    );
    // Still a project that validates here.
    expect((await run(dir, 'validate')).code).toBe(0);
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

  it('--ci decides the state backend: --state, else a question on a terminal, else a refusal that writes nothing', async () => {
    const refused = await run(root, 'init', 'undecided', '--ci', 'github');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('error: --ci needs a state backend');
    expect(refused.stderr).toContain('hint: pass --state file');
    expect(existsSync(join(root, 'undecided'))).toBe(false);

    const asked: string[] = [];
    const answers = ['sqlite', 'file'];
    let err = '';
    const io: Io = {
      stdout: () => {},
      stderr: (t) => {
        err += t;
      },
      color: false,
      interactive: true,
      cwd: root,
      env: {},
      prompt: async (question) => {
        asked.push(question);
        return answers.shift();
      },
    };
    expect(await main(['init', 'asked', '--ci', 'github'], io), err).toBe(0);
    expect(asked).toHaveLength(2);
    expect(asked[0]).toContain(
      '  file      .monitor/state/, committed back to the repository by the deploy job',
    );
    const deploy = read(root, 'asked', '.github/workflows/monitor-deploy.yml');
    expect(deploy).toContain('contents: write # the state, committed after each deploy');
    expect(deploy).toContain('- name: Commit the state');
    expect(deploy).not.toContain('MONITOR_STATE_URL');

    // Ctrl-C at the question: nothing is written.
    io.prompt = async () => undefined;
    expect(await main(['init', 'cancelled', '--ci', 'gitlab'], io)).toBe(1);
    expect(existsSync(join(root, 'cancelled'))).toBe(false);
  });

  it("in a subdirectory of a git repository: the workflows go to the repository's root, run in the project, and deploy its default branch", async () => {
    const repo = mkdtempSync(join(root, 'repo-'));
    const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { stdio: 'pipe' });
    git('init', '-q', '-b', 'work');
    git('symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/trunk');
    const result = await run(repo, 'init', 'ops/monitoring', '--ci', 'github', '--state', 'postgres');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('created  ../../.github/workflows/monitor-deploy.yml');
    expect(result.stdout).toContain('CI deploys from trunk with state in PostgreSQL');
    const deploy = parse(read(repo, '.github/workflows/monitor-deploy.yml'));
    expect(deploy.on.push.branches).toEqual(['trunk']);
    expect(deploy.defaults).toEqual({ run: { 'working-directory': 'ops/monitoring' } });
    const setupNode = deploy.jobs.deploy.steps.find((s: { uses?: string }) =>
      s.uses?.startsWith('actions/setup-node'),
    );
    expect(setupNode.with['cache-dependency-path']).toBe('ops/monitoring/package-lock.json');
    expect(existsSync(join(repo, 'ops/monitoring/.github'))).toBe(false);

    const gitlab = await run(
      repo,
      'init',
      'ops/monitoring',
      '--ci',
      'gitlab',
      '--state',
      'file',
      '--default-branch',
      'main',
    );
    expect(gitlab.code, gitlab.stderr).toBe(0);
    const pipeline = parse(read(repo, '.gitlab-ci.yml'));
    expect(pipeline['.monitor'].before_script[0]).toBe('cd ops/monitoring');
    // The state is committed in script, in the shell before_script moved into the project; no
    // after_script, whose failures GitLab ignores.
    expect(pipeline['monitor:deploy'].after_script).toBeUndefined();
    expect(pipeline['monitor:deploy'].script.join('\n')).toContain('git add .monitor/state');
  });
});
