import { execFile } from 'node:child_process';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { ResourceKind } from '@monitor/api';
import { createTwoFilesPatch } from 'diff/lib/patch/create.js';
import { EngineError } from '../errors.js';
import { ByPhysicalId } from '../identity.js';
import { isRefValue, isSecretValue, type PropValue } from '../import/values.js';
import { inDeclaredOrder } from '../live/read-live.js';
import { type NotPulled, planPull, type ResourcePull } from '../pull/plan-pull.js';
import type { ManualEdit, PulledEdit, RewriteContext } from '../pull/rewrite.js';
import { makePlan, type Scope } from './diff.js';
import { type AccountSnapshot, readAccount, type Target } from './target.js';

/**
 * `monitor pull`: the account's values of what drifted, written back into the project's
 * TypeScript at each construct's own call site. `pullEdits` reads and plans (and changes
 * nothing); `writePull` writes what it planned.
 */

export interface PullOptions {
  /** Only these constructs (a logical id or `Kind:logicalId`). */
  targets?: Scope['targets'];
  /** @default new Date() */
  now?: Date;
  snapshot?: Promise<AccountSnapshot>;
}

export interface PulledFile {
  /** Absolute. */
  file: string;
  before: string;
  after: string;
  /** The edit as a unified diff, with paths relative to the project. */
  patch: string;
}

export interface PullResult {
  files: PulledFile[];
  /** Each value written back, at its file and line. */
  pulled: (PulledEdit & { file: string })[];
  /** Values the code computes: to change by hand, with the account's value. */
  manual: (ManualEdit & { file: string })[];
  /** Changes pull does not bring back: secrets, resources whose code changed too, fields no prop holds. */
  notPulled: NotPulled[];
  /** Owned resources with fields the account changed: what the plan found. */
  drifted: number;
  requests: number;
}

/** A construct file pull would have to edit but cannot parse. */
export class PullSyntaxError extends EngineError {
  static override readonly code = 'syntax_error';
  override readonly name = 'PullSyntaxError';
}

/** An edit that would break the file it edits: nothing is written. */
export class PullFailedError extends EngineError {
  static override readonly code = 'pull_failed';
  override readonly name = 'PullFailedError';
}

/** `const name = new X('logicalId', …)` and `export const …`: the variables that hold constructs. */
const DECLARATION =
  /\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*new\s+[A-Za-z_$][\w$.]*\s*\(\s*(['"`])([^'"`\n]+)\2/g;

function variablesByLogicalId(
  files: readonly string[],
  read: (file: string) => string,
): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const file of files) {
    for (const m of read(file).matchAll(DECLARATION)) {
      const names = out.get(m[3] as string) ?? new Set<string>();
      names.add(m[1] as string);
      out.set(m[3] as string, names);
    }
  }
  return out;
}

/** The account's value for people to read: references by logical id, secrets never. */
function displayer(logicalIdOf: (kind: string, id: string | number) => string | undefined) {
  const display = (value: PropValue | undefined): unknown => {
    if (value === undefined) return undefined;
    if (isRefValue(value))
      return `${value.kind}:${logicalIdOf(value.kind, value.physicalId) ?? value.physicalId}`;
    if (isSecretValue(value)) return '(secret)';
    if (Array.isArray(value)) return value.map(display);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, display(v)]));
    return value;
  };
  return display;
}

/** Where a construct is made, as text: constructs made at the same place share their props. */
const placeOf = (r: { location?: { file: string; line: number; column: number } | undefined }) =>
  r.location === undefined ? '' : `${r.location.file}:${r.location.line}:${r.location.column}`;

/** What the rewriting of the project's files needs to know of the project and its state. */
function rewriteContext(
  project: Target['project'],
  state: AccountSnapshot['state'],
  read: (file: string) => string,
): RewriteContext {
  const logicalIds = ByPhysicalId.of(Object.values(state.resources), (e) => [e.kind, e.physicalId]);
  const logicalIdOf = (kind: string, id: string | number) =>
    logicalIds.tryFind(kind as ResourceKind, id)?.logicalId;
  const variables = variablesByLogicalId(project.files, read);
  const made = new Map<string, number>();
  for (const d of project.resources) made.set(placeOf(d), (made.get(placeOf(d)) ?? 0) + 1);
  return {
    variableOf: (finder, kind, id) => {
      const logicalId = logicalIdOf(kind, id);
      if (logicalId === undefined) return undefined;
      const visible = [...(variables.get(logicalId) ?? [])].filter((n) => finder.names.has(n));
      return visible.length === 1 ? visible[0] : undefined;
    },
    display: displayer(logicalIdOf),
    shared: (r) => (made.get(placeOf(r)) ?? 0) > 1,
  };
}

/** The rewriter, with ts-morph: loaded only by pull, not by every command that loads the engine. */
type Rewriter = typeof import('../pull/rewrite.js');

/** One construct file rewritten: refused when it does not parse, before or after. */
function rewriteProjectFile(
  { rewriteFile, syntaxErrors }: Rewriter,
  projectDir: string,
  file: string,
  before: string,
  resources: ResourcePull[],
  ctx: RewriteContext,
): { pulled: PullResult['pulled']; manual: PullResult['manual']; edited?: PulledFile } {
  const name = relative(projectDir, file);
  const errors = syntaxErrors(file, before);
  if (errors.length > 0)
    throw new PullSyntaxError(
      `${name} does not parse: ${errors[0]}`,
      'fix the file (monitor validate shows where), then pull again',
    );
  const rewritten = rewriteFile(file, before, resources, ctx);
  const pulled = rewritten.pulled.map((p) => ({ ...p, file }));
  const manual = rewritten.manual.map((m) => ({ ...m, file }));
  if (rewritten.text === before) return { pulled, manual };
  const afterErrors = syntaxErrors(file, rewritten.text);
  if (afterErrors.length > 0)
    throw new PullFailedError(
      `pull would leave ${name} unparsable (${afterErrors[0]}); nothing was written`,
      'please report this with the file; meanwhile edit by hand (monitor diff shows the values)',
    );
  // Without the `===` line the diff package starts with: as git prints it.
  const patch = createTwoFilesPatch(`a/${name}`, `b/${name}`, before, rewritten.text, '', '', {
    context: 3,
  }).replace(/^=+\n/, '');
  return { pulled, manual, edited: { file, before, after: rewritten.text, patch } };
}

/** Read, plan and rewrite in memory: what `pull` would write. Changes nothing. */
export async function pullEdits(target: Target, options: PullOptions = {}): Promise<PullResult> {
  // The values pulled into code list their fields as the kind declares them.
  const snapshot = (options.snapshot ?? readAccount(target)).then((s) => ({
    ...s,
    live: inDeclaredOrder(s.live),
  }));
  const { plan, live } = await makePlan(target, 'apply', options.now ?? new Date(), {
    snapshot,
    scope: { targets: options.targets },
  });
  const { state, requests } = await snapshot;
  const project = target.project;
  const pull = planPull(plan, live, project.resources);
  const texts = new Map<string, string>();
  const read = (file: string) => {
    if (!texts.has(file)) texts.set(file, readFileSync(file, 'utf8'));
    return texts.get(file) as string;
  };
  const ctx = rewriteContext(project, state, read);
  const result: PullResult = {
    files: [],
    pulled: [],
    manual: [],
    notPulled: pull.notPulled,
    drifted: plan.operations.filter(
      (o) =>
        o.action === 'update' &&
        o.changes.some((c) => (c.cause ?? (o.drift ? 'account' : 'code')) === 'account'),
    ).length,
    requests,
  };
  const byFile = new Map<string, ResourcePull[]>();
  for (const r of pull.resources) {
    const file = r.location?.file;
    if (file !== undefined && !file.includes('/node_modules/') && project.files.includes(file)) {
      byFile.set(file, [...(byFile.get(file) ?? []), r]);
      continue;
    }
    // Made in a library: nothing of the project to edit.
    for (const e of r.edits)
      result.manual.push({
        key: r.key,
        path: e.path,
        line: r.location?.line ?? 0,
        file: file ?? '',
        reason: 'the construct is made outside the project’s files (a library)',
        value: ctx.display(e.value),
      });
  }
  const rewriter = byFile.size > 0 ? await import('../pull/rewrite.js') : undefined;
  for (const [file, resources] of [...byFile].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const one = rewriteProjectFile(
      rewriter as Rewriter,
      project.projectDir,
      file,
      read(file),
      resources,
      ctx,
    );
    result.pulled.push(...one.pulled);
    result.manual.push(...one.manual);
    if (one.edited !== undefined) result.files.push(one.edited);
  }
  return result;
}

/** Write what `pullEdits` planned, each file whole or not at all (a temporary file renamed over it). */
export function writePull(result: PullResult): void {
  for (const f of result.files) {
    const temporary = join(dirname(f.file), `.${process.pid}.monitor-pull.tmp`);
    writeFileSync(temporary, f.after);
    renameSync(temporary, f.file);
  }
}

/**
 * The files among `files` with changes git has not committed (untracked and ignored ones too). `repository: false`
 * when `dir` is not in a git work tree, or git is not installed.
 */
export function uncommittedFiles(
  dir: string,
  files: readonly string[],
): Promise<{ repository: boolean; dirty: string[] }> {
  if (files.length === 0) return Promise.resolve({ repository: true, dirty: [] });
  return new Promise((resolve) => {
    execFile(
      'git',
      ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignored=matching', '--', ...files],
      { cwd: dir, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => {
        if (error !== null) {
          resolve({ repository: false, dirty: [] });
          return;
        }
        execFile('git', ['rev-parse', '--show-toplevel'], { cwd: dir }, (e2, top) => {
          const root = e2 === null ? top.trim() : dir;
          const dirty = stdout
            .split('\0')
            .filter((entry) => entry.length > 3)
            .map((entry) => join(root, entry.slice(3)));
          resolve({ repository: true, dirty });
        });
      },
    );
  });
}
