import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { nearestWorkspace } from '@monitor/engine/config-location';
import type { Argv } from 'yargs';
import { type CiHost, ciFiles, type StateBackendChoice } from '../ci-workflows.js';
import { workspaceCiFiles } from '../ci-workspace-workflows.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import {
  type InstallSource,
  installSource,
  outsideDependencies,
  type ProjectDependencies,
  projectDependencies,
  tarballsToVendor,
  VENDOR_DIR,
} from '../install-source.js';
import { type Io, paint } from '../io.js';
import { UsageError } from '../options.js';
import type { RunContext } from '../output.js';

export interface InitArgs {
  dir?: string | undefined;
  name?: string | undefined;
  ci?: CiHost | undefined;
  state?: StateBackendChoice | undefined;
  defaultBranch?: string | undefined;
  vendor?: boolean | undefined;
  json?: boolean | undefined;
}

const STATE_CHOICES = ['file', 'postgres'] as const;

export const builder = (y: Argv) =>
  y
    .positional('dir', { type: 'string', describe: 'Where to scaffold (default: the current directory)' })
    .option('name', { type: 'string', describe: 'The projectName (default: the directory name)' })
    .option('ci', {
      choices: ['github', 'gitlab'] as const,
      describe:
        'Also add the CI workflows: a PR preview, deploy from the default branch, a nightly drift check (docs/ci.md)',
    })
    .option('state', {
      choices: STATE_CHOICES,
      describe:
        'With --ci: where CI keeps state. file: .monitor/state/, committed back by the deploy job; postgres: MONITOR_STATE_URL. Asked on a terminal',
    })
    .option('default-branch', {
      type: 'string',
      describe:
        "With --ci: the branch that deploys (default: origin's HEAD, else git's init.defaultBranch, else main)",
    })
    .option('vendor', {
      type: 'boolean',
      describe:
        "Carry monitor's packages in vendor/ (npm pack tarballs; package.json says file:vendor/…), so that the project installs wherever it is copied, CI included. The default when monitor comes from a checkout or tarballs, not a registry; --no-vendor links them where they are, which installs on this machine only",
    })
    .option('json', {
      type: 'boolean',
      describe: 'Print one JSON envelope: what was created and what was kept',
    })
    .example('$0 init', 'a project in this directory')
    .example(
      '$0 init monitoring --ci github --state postgres',
      'a new directory, with GitHub Actions workflows',
    )
    .epilogue(
      'Never overwrites a file: what exists is kept (package.json and .gitignore gain what they lack).',
    );

/** `projectName` from a directory name: lower case, letters, digits and dashes. */
function projectNameFrom(dir: string): string {
  const name = basename(resolve(dir))
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return name === '' ? 'monitoring' : name;
}

const CONFIG = (name: string) => `import { defineConfig } from '@monitor/constructs';

export default defineConfig({
  projectName: '${name}',
  // Every *.monitor.ts file under monitors/ is part of the project.
  include: ['monitors/**/*.monitor.ts'],
});
`;

const TSCONFIG = `{
  "compilerOptions": {
    "target": "ES2022",
    "module": "preserve",
    "moduleResolution": "bundler",
    "strict": true,
    "noEmit": true,
    "skipLibCheck": true
  },
  "include": ["monitor.config.ts", "monitors/**/*.ts"],
  "exclude": ["node_modules", ".monitor"]
}
`;

const EXAMPLE = `import { CheckGroup, EmailAlertChannel } from '@monitor/constructs';

/** Who hears about failures. */
export const oncall = new EmailAlertChannel('oncall-email', { address: 'oncall@example.com' });

/** A group of API checks, run every minute from two locations. */
export const api = new CheckGroup('example-api', {
  name: 'Example API',
  tags: ['example'],
  locations: ['eu-west-1', 'us-east-1'],
  apiCheckDefaults: { url: 'https://api.example.com' },
  alertChannels: [oncall],
});
`;

const GITIGNORE_LINES = ['node_modules/', '.monitor/local/'];

/** What init did to each file of the project, by its path relative to the project. */
class ProjectFiles {
  readonly created: string[] = [];
  readonly changed: string[] = [];
  readonly kept: string[] = [];
  constructor(readonly dir: string) {}

  /** Writes `text` to `path` (relative to the project, or absolute) unless a file is there. */
  write(path: string, text: string): void {
    this.#create(path, (full) => writeFileSync(full, text));
  }

  /** Copies the file `from` to `path` unless a file is there. */
  copy(path: string, from: string): void {
    this.#create(path, (full) => copyFileSync(from, full));
  }

  #create(path: string, make: (full: string) => void): void {
    const full = resolve(this.dir, path);
    const shown = relative(this.dir, full);
    if (existsSync(full)) {
      this.kept.push(shown);
      return;
    }
    mkdirSync(dirname(full), { recursive: true });
    make(full);
    this.created.push(shown);
  }
}

type InstallFrom = ProjectDependencies & { describe: string };
/** The CI files init wrote: `workspace` when they are the workspace's (the project is in one). */
type CiChoice = { host: CiHost; state: StateBackendChoice; branch: string; root: string; workspace: boolean };

/**
 * `monitor init [dir]`: a project that validates and deploys to the embedded emulator as it is,
 * in an empty directory or beside existing files, which are never overwritten. Off a registry, the
 * project carries monitor's packages in vendor/ (unless --no-vendor), so that a copy of it
 * installs anywhere, as a CI checkout does.
 */
export async function run(args: InitArgs, { io, out }: RunContext): Promise<ExitCode> {
  const dir = resolve(io.cwd, args.dir ?? '.');
  if (existsSync(dir) && !statSync(dir).isDirectory())
    throw new UsageError(`${dir} is a file, not a directory`);
  const name = args.name ?? projectNameFrom(dir);
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) {
    throw new UsageError(
      `--name "${name}" is not a project name`,
      'use letters, digits, dots, dashes and underscores',
    );
  }
  const source = installSource();
  const installFrom = {
    ...projectDependencies(dir, source, vendorChoice(args, source)),
    describe: source.describe,
  };
  // Decided before anything is written: a refusal leaves nothing behind.
  const state = args.ci === undefined ? undefined : (args.state ?? (await askState(io)));
  const vendoring = tarballsFor(dir, source, installFrom);
  const files = new ProjectFiles(dir);
  try {
    mkdirSync(dir, { recursive: true });
    files.write('monitor.config.ts', CONFIG(name));
    files.write('tsconfig.json', TSCONFIG);
    files.write(join('monitors', 'example.monitor.ts'), EXAMPLE);
    addPackageJson(files, name, installFrom);
    for (const [path, tarball] of Object.entries(vendoring.tarballs)) files.copy(path, tarball);
    files.kept.push(...vendoring.present);
  } finally {
    vendoring.cleanup();
  }
  addGitignore(files);
  const ci =
    args.ci !== undefined && state !== undefined
      ? addCiFiles(files, args.ci, state, args.defaultBranch)
      : undefined;

  const where = relative(io.cwd, dir) || '.';
  const next = [
    ...(where === '.' ? [] : [`cd ${where}`]),
    'npm install',
    'npx monitor validate',
    'npx monitor deploy --local --yes',
  ];
  const declared = declaredDependencies(join(dir, 'package.json'));
  const vendored = Object.entries(installFrom.vendored)
    .filter(([path, dep]) => declared[dep] === `file:${path}`)
    .map(([path]) => path);
  const warnings = installWarnings(dir, declared, ci);
  out.project = name;
  out.result = {
    dir,
    created: files.created,
    changed: files.changed,
    kept: files.kept,
    next,
    dependencies: { source: installFrom.source, ...installFrom.dependencies, ...installFrom.devDependencies },
    vendored,
    warnings,
    ci:
      ci === undefined
        ? null
        : { host: ci.host, state: ci.state, defaultBranch: ci.branch, workspace: ci.workspace },
  };
  if (!out.json) {
    io.stdout(
      initReport(files, { name, describe: installFrom.describe, vendored }, ci, next, paint(io.color)),
    );
    for (const w of warnings) io.stderr(`${paint(io.color).yellow('warning:')} ${w}\n`);
  }
  return EXIT.ok;
}

/** --vendor as given, else on when monitor comes from anywhere but a registry. */
function vendorChoice(args: InitArgs, source: InstallSource): boolean {
  if (args.vendor === true && source.kind === 'registry') {
    throw new UsageError(
      `--vendor: monitor comes from ${source.describe}, which a CI runner installs from as well`,
      "leave out --vendor: package.json then depends on the registry's @monitor packages",
    );
  }
  return args.vendor ?? source.kind !== 'registry';
}

/**
 * The tarballs to copy into the project, by their path in it: those package.json will name (its
 * own dependency when it has one, else ours) that the project does not have yet (`present`: those
 * it has). Packed from a checkout into a scratch directory that `cleanup` removes.
 */
function tarballsFor(
  dir: string,
  source: InstallSource,
  installFrom: InstallFrom,
): { tarballs: Record<string, string>; present: string[]; cleanup: () => void } {
  const declared = declaredDependencies(join(dir, 'package.json'));
  const named = Object.entries(installFrom.vendored).filter(
    ([path, dep]) => (declared[dep] ?? installFrom.dependencies[dep]) === `file:${path}`,
  );
  const present = named.filter(([path]) => existsSync(join(dir, path))).map(([path]) => path);
  const missing = named.filter(([path]) => !present.includes(path));
  if (missing.length === 0 || source.kind === 'registry') return { tarballs: {}, present, cleanup: () => {} };
  const scratch = mkdtempSync(join(tmpdir(), 'monitor-vendor-'));
  const cleanup = () => rmSync(scratch, { recursive: true, force: true });
  try {
    const packed = tarballsToVendor(source, scratch);
    const tarballs = Object.fromEntries(missing.map(([path, dep]) => [path, packed[dep] as string]));
    return { tarballs, present, cleanup };
  } catch (e) {
    cleanup();
    throw e;
  }
}

/** What the project's install cannot do, as package.json now stands: said when init is done. */
function installWarnings(dir: string, declared: Record<string, string>, ci: CiChoice | undefined): string[] {
  const outside = outsideDependencies(dir, declared);
  if (outside.length === 0) return [];
  return [
    `package.json depends on ${outside.join(', ')} at paths outside the project: it installs on this machine only${ci === undefined ? '' : ', and the CI workflows fail at npm ci on a runner'}. To carry monitor's packages in the project (${VENDOR_DIR}/), remove those dependencies and run monitor init again without --no-vendor`,
  ];
}

/**
 * The install scripts a project reviews and allows (npm 11's `allowScripts`; npm 12 blocks the
 * others): esbuild's postinstall checks that its binary for this platform is there. See
 * docs/install.md.
 */
const ALLOW_SCRIPTS = { esbuild: true };

/** package.json: created, or given the dependencies it lacks; nothing it has is changed. */
function addPackageJson(files: ProjectFiles, name: string, installFrom: InstallFrom): void {
  const wanted = installFrom.dependencies;
  const wantedDev = installFrom.devDependencies;
  const packagePath = join(files.dir, 'package.json');
  if (!existsSync(packagePath)) {
    files.write(
      'package.json',
      `${JSON.stringify({ name, private: true, type: 'module', scripts: { validate: 'monitor validate', diff: 'monitor diff', deploy: 'monitor deploy', typecheck: 'tsc' }, dependencies: wanted, devDependencies: wantedDev, allowScripts: ALLOW_SCRIPTS }, null, 2)}\n`,
    );
    return;
  }
  const pkg = readPackageJson(packagePath);
  const deps = { ...((pkg.dependencies as Record<string, string> | undefined) ?? {}) };
  const devDeps = { ...((pkg.devDependencies as Record<string, string> | undefined) ?? {}) };
  const lacks = (entries: Record<string, string>) =>
    Object.entries(entries).filter(([dep]) => deps[dep] === undefined && devDeps[dep] === undefined);
  const missing = lacks(wanted);
  const missingDev = lacks(wantedDev);
  if (missing.length === 0 && missingDev.length === 0) {
    files.kept.push('package.json');
    return;
  }
  if (missing.length > 0) pkg.dependencies = { ...deps, ...Object.fromEntries(missing) };
  if (missingDev.length > 0) pkg.devDependencies = { ...devDeps, ...Object.fromEntries(missingDev) };
  writeFileSync(packagePath, `${JSON.stringify(pkg, null, 2)}\n`);
  files.changed.push('package.json');
}

/** An existing package.json, or a usage error saying it is not JSON. */
function readPackageJson(packagePath: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(packagePath, 'utf8')) as Record<string, unknown>;
  } catch (e) {
    throw new UsageError(
      `${packagePath} is not JSON: ${(e as Error).message}`,
      'fix it, then run monitor init again',
    );
  }
}

/** The dependencies and dev dependencies an existing package.json declares; none when there is none. */
function declaredDependencies(packagePath: string): Record<string, string> {
  if (!existsSync(packagePath)) return {};
  const pkg = readPackageJson(packagePath);
  return {
    ...((pkg.devDependencies as Record<string, string> | undefined) ?? {}),
    ...((pkg.dependencies as Record<string, string> | undefined) ?? {}),
  };
}

/** .gitignore: the emulator's data and state never belong in the repository. */
function addGitignore(files: ProjectFiles): void {
  const ignorePath = join(files.dir, '.gitignore');
  if (!existsSync(ignorePath)) {
    files.write('.gitignore', `${GITIGNORE_LINES.join('\n')}\n`);
    return;
  }
  const text = readFileSync(ignorePath, 'utf8');
  const lines = text.split('\n').map((l) => l.trim());
  const missing = GITIGNORE_LINES.filter((l) => !lines.includes(l) && !lines.includes(l.replace(/\/$/, '')));
  if (missing.length === 0) {
    files.kept.push('.gitignore');
    return;
  }
  writeFileSync(
    ignorePath,
    `${text}${text.endsWith('\n') || text === '' ? '' : '\n'}${missing.join('\n')}\n`,
  );
  files.changed.push('.gitignore');
}

/**
 * The CI workflows, at the root of the repository the project is in: CI reads them only there.
 * They deploy from `defaultBranch`, else the repository's own default branch.
 */
function addCiFiles(
  files: ProjectFiles,
  host: CiHost,
  state: StateBackendChoice,
  defaultBranch: string | undefined,
): CiChoice {
  const repo = repository(files.dir);
  const branch = defaultBranch ?? repo.defaultBranch;
  // In a workspace the workflows are the workspace's: a matrix of the projects a change touches.
  const workspaceFile = nearestWorkspace(files.dir);
  const dir = workspaceFile === undefined ? files.dir : dirname(workspaceFile);
  const projectDir = relative(repo.root, realpathSync(dir)).split(sep).join('/') || '.';
  const written =
    workspaceFile === undefined
      ? ciFiles(host, { state, branch, projectDir })
      : workspaceCiFiles(host, { state, branch, projectDir });
  for (const f of written) files.write(join(repo.root, f.path), f.text);
  return { host, state, branch, root: repo.root, workspace: workspaceFile !== undefined };
}

/** What init did, file by file, where monitor comes from, and what to run next. */
function initReport(
  files: ProjectFiles,
  { name, describe, vendored }: { name: string; describe: string; vendored: string[] },
  ci: CiChoice | undefined,
  next: string[],
  p: ReturnType<typeof paint>,
): string {
  const out: string[] = [];
  for (const f of files.created) out.push(`${p.green('created')}  ${f}\n`);
  for (const f of files.changed) out.push(`${p.yellow('updated')}  ${f}\n`);
  for (const f of files.kept) out.push(`${p.dim('kept   ')}  ${f} ${p.dim('(exists)')}\n`);
  out.push(p.dim(`\n${sourceLines(describe, vendored.length)}`));
  if (ci !== undefined) {
    out.push(
      p.dim(
        `CI deploys from ${ci.branch} with ${ci.state === 'postgres' ? 'state in PostgreSQL (set MONITOR_STATE_URL)' : 'state in .monitor/state/, committed by the deploy job'}: set the secrets and variables of docs/ci.md.\n`,
      ),
    );
  }
  out.push(`\nProject ${p.bold(name)} is ready. Next:\n\n${next.map((c) => `  ${c}`).join('\n')}\n`);
  out.push(
    p.dim(
      '\nThen point it at your account (MONITOR_API_KEY, MONITOR_ACCOUNT_ID, MONITOR_BASE_URL) and run npx monitor diff.\n',
    ),
  );
  return out.join('');
}

/** Where monitor comes from, and what the project carries of it. */
function sourceLines(describe: string, count: number): string {
  if (count === 0) return `monitor comes from ${describe}.\n`;
  return (
    `monitor comes from ${describe}, not from a registry.\n` +
    `${VENDOR_DIR}/ holds its ${count} packages (npm pack tarballs): the project installs wherever it is copied, CI included. Commit ${VENDOR_DIR}/ with it.\n`
  );
}

/** The state backend CI will use: asked on a terminal, required as --state otherwise. */
async function askState(io: Io): Promise<StateBackendChoice> {
  const refuse = () =>
    new UsageError(
      '--ci needs a state backend: the deploy job must find the state of the deploy before it',
      'pass --state file (state committed back to the repository by the deploy job) or --state postgres (MONITOR_STATE_URL); see docs/ci.md',
    );
  if (!io.interactive || io.prompt === undefined) throw refuse();
  const question =
    'Where does CI keep the state (what the project owns)?\n' +
    '  file      .monitor/state/, committed back to the repository by the deploy job\n' +
    '  postgres  a PostgreSQL database (MONITOR_STATE_URL), shared by every runner and person\n' +
    'State backend (file or postgres): ';
  for (;;) {
    const answer = (await io.prompt(question))?.trim().toLowerCase();
    if (answer === undefined) throw refuse();
    const choice = STATE_CHOICES.find((c) => c === answer);
    if (choice !== undefined) return choice;
  }
}

/**
 * The git repository `dir` is committed in (its root and default branch), or `dir` itself when
 * it is in none, git is missing, or the repository ignores it.
 */
function repository(dir: string): { root: string; defaultBranch: string } {
  const git = (...args: string[]) => {
    const result = spawnSync('git', ['-C', dir, ...args], { encoding: 'utf8' });
    return result.status === 0 ? result.stdout.trim() : undefined;
  };
  const root = git('rev-parse', '--show-toplevel');
  const inRepository = root !== undefined && root !== '' && git('check-ignore', '-q', '.') === undefined;
  const origin = inRepository
    ? git('symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD')
    : undefined;
  const defaultBranch =
    origin?.replace(/^origin\//, '') || git('config', '--get', 'init.defaultBranch') || 'main';
  return { root: inRepository ? root : realpathSync(dir), defaultBranch };
}
