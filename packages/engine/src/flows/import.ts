import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { RESOURCE_KINDS, type ResourceKind } from '@monitor/api';
import { type ImportPlan, planImport, type RecoveredResource } from '../import/import.js';
import { inDeclaredOrder } from '../live/read-live.js';
import type { LoadedProject } from '../load/load.js';
import { validateProject } from '../load/validate.js';
import type { Consent } from './deploy.js';
import { ImportFailedError, ImportFilterError } from './errors.js';
import { type LockEvent, lockedFlow } from './locked.js';
import { readAccount, type Target } from './target.js';

/** Which resources to import, as people name them; one filter's values are OR-ed, different filters AND-ed. */
export interface ImportSelection {
  /** Kinds, as `CheckGroup`, `checkgroup` or `check-group`. */
  kinds?: readonly string[];
  /** Physical ids. */
  ids?: readonly string[];
  /** Globs over display names: `*` any run of characters, `?` one. */
  names?: readonly string[];
  tags?: readonly string[];
}

/** Progress of an import, as it happens. */
export type ImportEvent = LockEvent | { type: 'reading' } | { type: 'generating' };

export interface ImportFlowOptions {
  /** What holds the lock, e.g. `monitor import`. */
  command: string;
  filters?: ImportSelection;
  /** One module per kind, or the tagged kinds by their first tag. @default 'kind' */
  groupBy?: 'kind' | 'tag';
  /** Only find the code's constructs again after lost state, and record them; generate no code. @default false */
  recoverOnly?: boolean;
  /** Directory of the generated files. @default where the project's first include pattern looks */
  outDir?: string;
  /** Generate and plan only: take no lock, write and record nothing. @default false */
  dryRun?: boolean;
  /** Replace generated files that exist. @default false */
  overwrite?: boolean;
  /**
   * Asked before recording constructs of the code found by their content alone (alert channels):
   * two alike resources cannot be told apart, so someone confirms.
   */
  confirm: (matched: RecoveredResource[]) => Promise<Consent>;
  /** @default 0 */
  lockTimeoutMs?: number;
  onEvent?: (event: ImportEvent) => void;
  /** Where the generated code's secrets come from when they are set now. @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
  /** @default new Date() */
  now?: Date;
}

/** A file the import writes, with its absolute path. */
export interface ImportFile {
  path: string;
  text: string;
}

/**
 * How an import ended. Only `imported` wrote anything: the files, then the state entries.
 * `files-exist`: generated files would replace files that exist (`existing`), and `overwrite` was
 * not given. `refused`: constructs found by content alone were not confirmed.
 */
export type ImportOutcome =
  | { status: 'nothing'; plan: ImportPlan; files: ImportFile[] }
  | { status: 'dry-run'; plan: ImportPlan; files: ImportFile[] }
  | { status: 'files-exist'; plan: ImportPlan; files: ImportFile[]; existing: string[] }
  | { status: 'refused'; plan: ImportPlan; files: ImportFile[]; reason: string; hint?: string }
  | {
      status: 'imported';
      plan: ImportPlan;
      files: ImportFile[];
      /** Variables the project reads with `requiredEnv` that are not set here: every later run needs them. */
      unset: string[];
    };

/** The kinds `names` name, however they are written (`CheckGroup`, `check-group`); a bad one is an `ImportFilterError`. */
export function kindsNamed(names: readonly string[]): ResourceKind[] {
  return names.map((name) => {
    const kind = RESOURCE_KINDS.find((k) => k.toLowerCase() === name.replace(/-/g, '').toLowerCase());
    if (kind === undefined)
      throw new ImportFilterError(`unknown kind "${name}"`, `kinds are ${RESOURCE_KINDS.join(', ')}`);
    return kind;
  });
}

/** Where generated files go and what they are called: what the project's first include pattern loads. */
export function importDestination(
  project: LoadedProject,
  outDir?: string,
): { dir: string; extension: string } {
  const pattern = project.config.include[0] ?? '**/*.monitor.ts';
  const extension = /\*(\.[\w.]+)$/.exec(pattern)?.[1] ?? '.monitor.ts';
  // The directories before the first segment with a glob character: `monitors/**/*.monitor.ts` → monitors.
  const segments = pattern.split('/');
  const firstGlob = segments.findIndex((s) => /[*?[{]/.test(s));
  const staticPart = segments.slice(0, firstGlob === -1 ? segments.length - 1 : firstGlob);
  return {
    dir: outDir ?? resolve(project.projectDir, ...staticPart),
    extension: extension.endsWith('.ts') ? extension : '.monitor.ts',
  };
}

/**
 * Import what the project does not own: read the account, generate the code of its resources, and,
 * unless a dry run, write the files, load the project with them, and only then record the
 * resources as owned. Files come before state: a failure leaves resources unowned, never owned
 * without code. With `recoverOnly`, find the code's constructs again after lost state instead.
 */
export async function importResources(target: Target, options: ImportFlowOptions): Promise<ImportOutcome> {
  const kinds = kindsNamed(options.filters?.kinds ?? []);
  const run = () => importLocked(target, options, kinds);
  if (options.dryRun === true) return run();
  return lockedFlow(target.backend, options, run);
}

async function importLocked(
  target: Target,
  options: ImportFlowOptions,
  kinds: ResourceKind[],
): Promise<ImportOutcome> {
  const { project } = target;
  const now = options.now ?? new Date();
  options.onEvent?.({ type: 'reading' });
  const { state, live: sent, otherOwners } = await readAccount(target);
  const live = inDeclaredOrder(sent);
  options.onEvent?.({ type: 'generating' });
  const plan = planImport({
    live,
    state,
    code: project.resources,
    defaults: project.config.defaults,
    filters: {
      kinds,
      ids: options.filters?.ids ?? [],
      names: options.filters?.names ?? [],
      tags: options.filters?.tags ?? [],
    },
    groupBy: options.groupBy ?? 'kind',
    recoverOnly: options.recoverOnly === true,
    ...(otherOwners === undefined ? {} : { otherOwners }),
    env: options.env ?? process.env,
    secretKey: target.secretKey,
    now,
  });
  const errors = plan.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    throw new ImportFailedError(
      `the generated code would not load: ${errors.map((d) => `${d.logicalId ?? ''} ${d.path}: ${d.message}`).join('; ')}`,
      'this is a monitor bug: please report it; nothing was written',
    );
  }
  const files = await generate(target, plan, options.outDir, now);
  if (plan.resources.length === 0 && plan.recovered.length === 0) return { status: 'nothing', plan, files };
  const existing = files.map((f) => f.path).filter((path) => existsSync(path));
  if (options.dryRun === true) return { status: 'dry-run', plan, files };
  if (existing.length > 0 && options.overwrite !== true)
    return { status: 'files-exist', plan, files, existing };

  const byContent = plan.recovered.filter((r) => r.byContent);
  if (byContent.length > 0) {
    const consent = await options.confirm(byContent);
    if (!consent.approved) {
      const { reason, hint } = consent;
      return { status: 'refused', plan, files, reason, ...(hint === undefined ? {} : { hint }) };
    }
  }

  for (const f of files) {
    mkdirSync(dirname(f.path), { recursive: true });
    writeFileSync(f.path, f.text);
  }
  const unset = await checkGenerated(project, plan, files);
  await target.backend.record(state, plan.entries);
  await target.backend.commit(state);
  return { status: 'imported', plan, files, unset };
}

/** The modules of the imported resources, where the project will load them. ts-morph is loaded only here. */
async function generate(target: Target, plan: ImportPlan, outDir: string | undefined, now: Date) {
  const { generateModules } = await import('../import/codegen.js');
  const { dir, extension } = importDestination(target.project, outDir);
  const banner = `// Imported by monitor import from account ${target.accountId} on ${now.toISOString().slice(0, 10)}.\n// This is your code now: rename, regroup and refactor freely. Keep the logical ids, or name the old\n// one in the options, new's third argument: new CheckGroup('new-id', { … }, { aliases: ['old-id'] }).`;
  return generateModules(plan.resources, { extension, banner }).map((f) => ({
    path: join(dir, f.path),
    text: f.text,
  }));
}

/**
 * Load the project with the files just written, as every later run will, and check that each
 * imported construct is there. Returns the variables the project reads with `requiredEnv` that
 * are not set here.
 */
async function checkGenerated(
  project: LoadedProject,
  plan: ImportPlan,
  files: ImportFile[],
): Promise<string[]> {
  const report = await validateProject({
    config: project.configPath,
    environment: project.config.environment,
    // Files written where no pattern looks are named below, with what to do.
    allowUnmatchedIncludes: true,
  });
  const where = files.map((f) => relative(project.projectDir, f.path)).join(', ');
  const loaded = report.project;
  if (loaded === undefined) {
    throw new ImportFailedError(
      `the project does not load with the generated files (${report.diagnostics[0]?.message ?? 'unknown error'}); they were written (${where}) but nothing was recorded in state`,
      'fix or remove the generated files, then import again',
    );
  }
  const missing = Object.values(plan.entries).filter(
    (e) => !loaded.resources.some((r) => r.kind === e.kind && r.logicalId === e.logicalId),
  );
  if (missing.length > 0) {
    throw new ImportFailedError(
      `the project's include patterns do not load the generated files (${where}): ${missing.length} imported construct${missing.length === 1 ? ' is' : 's are'} missing; nothing was recorded in state`,
      'move the files where an include pattern in monitor.config.ts finds them (or write them to a directory it includes), then import again',
    );
  }
  return report.diagnostics.flatMap(
    (d) => /^environment variable (\S+) is not set \(requiredEnv\)$/.exec(d.message)?.[1] ?? [],
  );
}
