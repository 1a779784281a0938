import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { paint } from '../io.js';
import { UsageError } from '../options.js';
import type { RunContext } from '../output.js';
import { CLI_VERSION } from '../version.js';

export interface InitArgs {
  dir?: string | undefined;
  name?: string | undefined;
  ci?: 'github' | 'gitlab' | undefined;
  json?: boolean | undefined;
}

export const builder = (y: Argv) =>
  y
    .positional('dir', { type: 'string', describe: 'Where to scaffold (default: the current directory)' })
    .option('name', { type: 'string', describe: 'The projectName (default: the directory name)' })
    .option('ci', {
      choices: ['github', 'gitlab'] as const,
      describe: 'Also add the CI workflows: a PR preview, deploy on main, a nightly drift check (docs/ci.md)',
    })
    .option('json', {
      type: 'boolean',
      describe: 'Print one JSON envelope: what was created and what was kept',
    })
    .example('$0 init', 'a project in this directory')
    .example('$0 init monitoring --ci github', 'a new directory, with GitHub Actions workflows')
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

/** The CI workflows shipped beside the CLI (the same files as examples/ci in the repository). */
function ciTemplates(ci: 'github' | 'gitlab'): { from: string; to: string }[] {
  // From the package's root: this module may be bundled into a file at another depth of dist/.
  const packageRoot = dirname(createRequire(import.meta.url).resolve('@monitor/cli/package.json'));
  const root = join(packageRoot, 'dist', 'templates', 'ci');
  if (ci === 'gitlab') return [{ from: join(root, 'gitlab', '.gitlab-ci.yml'), to: '.gitlab-ci.yml' }];
  return readdirSync(join(root, 'github')).map((file) => ({
    from: join(root, 'github', file),
    to: join('.github', 'workflows', file),
  }));
}

/**
 * `monitor init [dir]`: a project that validates and deploys to the embedded emulator as it is,
 * in an empty directory or beside existing files, which are never overwritten.
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
  const created: string[] = [];
  const kept: string[] = [];
  const changed: string[] = [];
  const write = (path: string, text: string) => {
    const full = join(dir, path);
    if (existsSync(full)) {
      kept.push(path);
      return;
    }
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
    created.push(path);
  };

  mkdirSync(dir, { recursive: true });
  write('monitor.config.ts', CONFIG(name));
  write('tsconfig.json', TSCONFIG);
  write(join('monitors', 'example.monitor.ts'), EXAMPLE);

  // package.json: created, or given the dependencies it lacks; nothing it has is changed.
  const wanted = { '@monitor/cli': `^${CLI_VERSION}`, '@monitor/constructs': `^${CLI_VERSION}` };
  const packagePath = join(dir, 'package.json');
  if (existsSync(packagePath)) {
    let pkg: Record<string, unknown>;
    try {
      pkg = JSON.parse(readFileSync(packagePath, 'utf8')) as Record<string, unknown>;
    } catch (e) {
      throw new UsageError(
        `${packagePath} is not JSON: ${(e as Error).message}`,
        'fix it, then run monitor init again',
      );
    }
    const deps = { ...((pkg.dependencies as Record<string, string> | undefined) ?? {}) };
    const devDeps = (pkg.devDependencies as Record<string, string> | undefined) ?? {};
    const missing = Object.entries(wanted).filter(
      ([dep]) => deps[dep] === undefined && devDeps[dep] === undefined,
    );
    if (missing.length > 0) {
      pkg.dependencies = { ...deps, ...Object.fromEntries(missing) };
      writeFileSync(packagePath, `${JSON.stringify(pkg, null, 2)}\n`);
      changed.push('package.json');
    } else {
      kept.push('package.json');
    }
  } else {
    write(
      'package.json',
      `${JSON.stringify({ name, private: true, type: 'module', scripts: { validate: 'monitor validate', diff: 'monitor diff', deploy: 'monitor deploy' }, dependencies: wanted }, null, 2)}\n`,
    );
  }

  // .gitignore: the emulator's data and state never belong in the repository.
  const ignorePath = join(dir, '.gitignore');
  if (existsSync(ignorePath)) {
    const text = readFileSync(ignorePath, 'utf8');
    const lines = text.split('\n').map((l) => l.trim());
    const missing = GITIGNORE_LINES.filter(
      (l) => !lines.includes(l) && !lines.includes(l.replace(/\/$/, '')),
    );
    if (missing.length > 0) {
      writeFileSync(
        ignorePath,
        `${text}${text.endsWith('\n') || text === '' ? '' : '\n'}${missing.join('\n')}\n`,
      );
      changed.push('.gitignore');
    } else {
      kept.push('.gitignore');
    }
  } else {
    write('.gitignore', `${GITIGNORE_LINES.join('\n')}\n`);
  }

  if (args.ci !== undefined) {
    for (const t of ciTemplates(args.ci)) write(t.to, readFileSync(t.from, 'utf8'));
  }

  const where = relative(io.cwd, dir) || '.';
  const next = [
    ...(where === '.' ? [] : [`cd ${where}`]),
    'npm install',
    'npx monitor validate',
    'npx monitor deploy --local --yes',
  ];
  out.project = name;
  out.result = { dir, created, changed, kept, next };
  if (!out.json) {
    const p = paint(io.color);
    for (const f of created) io.stdout(`${p.green('created')}  ${f}\n`);
    for (const f of changed) io.stdout(`${p.yellow('updated')}  ${f}\n`);
    for (const f of kept) io.stdout(`${p.dim('kept   ')}  ${f} ${p.dim('(exists)')}\n`);
    io.stdout(`\nProject ${p.bold(name)} is ready. Next:\n\n${next.map((c) => `  ${c}`).join('\n')}\n`);
    io.stdout(
      p.dim(
        '\nThen point it at your account (MONITOR_API_KEY, MONITOR_ACCOUNT_ID, MONITOR_BASE_URL) and run npx monitor diff.\n',
      ),
    );
  }
  return EXIT.ok;
}
