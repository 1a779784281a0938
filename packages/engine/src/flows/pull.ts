import { execFile } from 'node:child_process';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { ResourceKind } from '@monitor/api';
import { createTwoFilesPatch } from 'diff';
import { EngineError } from '../errors.js';
import { ByPhysicalId } from '../identity.js';
import { isRefValue, isSecretValue, type PropValue } from '../import/values.js';
import { type NotPulled, planPull, type ResourcePull } from '../pull/plan-pull.js';
import { type ManualEdit, type PulledEdit, rewriteFile, syntaxErrors } from '../pull/rewrite.js';
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

/** Read, plan and rewrite in memory: what `pull` would write. Changes nothing. */
export async function pullEdits(target: Target, options: PullOptions = {}): Promise<PullResult> {
  const snapshot = options.snapshot ?? readAccount(target);
  const { plan, live } = await makePlan(target, 'apply', options.now ?? new Date(), {
    snapshot,
    scope: { targets: options.targets },
  });
  const { state, requests } = await snapshot;
  const project = target.project;
  const pull = planPull(plan, live, project.resources);

  const texts = new Map<string, string>();
  const read = (file: string) => {
    let text = texts.get(file);
    if (text === undefined) {
      text = readFileSync(file, 'utf8');
      texts.set(file, text);
    }
    return text;
  };
  // Logical ids of physical ids (references), and the variables that hold each construct.
  const logicalIds = ByPhysicalId.of(Object.values(state.resources), (e) => [e.kind, e.physicalId]);
  const variables = variablesByLogicalId(project.files, read);
  const logicalIdOf = (kind: string, id: string | number) =>
    logicalIds.tryFind(kind as ResourceKind, id)?.logicalId;
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
  const where = (r: { location?: { file: string; line: number; column: number } | undefined }) =>
    r.location === undefined ? '' : `${r.location.file}:${r.location.line}:${r.location.column}`;
  const made = new Map<string, number>();
  for (const d of project.resources) made.set(where(d), (made.get(where(d)) ?? 0) + 1);

  const byFile = new Map<string, ResourcePull[]>();
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
  for (const r of pull.resources) {
    const file = r.location?.file;
    // Made in a library: nothing of the project to edit.
    if (file === undefined || file.includes('/node_modules/') || !project.files.includes(file)) {
      const line = r.location?.line ?? 0;
      for (const e of r.edits)
        result.manual.push({
          key: r.key,
          path: e.path,
          line,
          file: file ?? '',
          reason: 'the construct is made outside the project’s files (a library)',
          value: display(e.value),
        });
      continue;
    }
    byFile.set(file, [...(byFile.get(file) ?? []), r]);
  }
  for (const [file, resources] of [...byFile].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const before = read(file);
    const errors = syntaxErrors(file, before);
    if (errors.length > 0)
      throw new PullSyntaxError(
        `${relative(project.projectDir, file)} does not parse: ${errors[0]}`,
        'fix the file (monitor validate shows where), then pull again',
      );
    const rewritten = rewriteFile(file, before, resources, {
      variableOf: (finder, kind, id) => {
        const logicalId = logicalIdOf(kind, id);
        if (logicalId === undefined) return undefined;
        const visible = [...(variables.get(logicalId) ?? [])].filter((n) => finder.names.has(n));
        return visible.length === 1 ? visible[0] : undefined;
      },
      display,
      shared: (r) => (made.get(where(r)) ?? 0) > 1,
    });
    result.pulled.push(...rewritten.pulled.map((p) => ({ ...p, file })));
    result.manual.push(...rewritten.manual.map((m) => ({ ...m, file })));
    if (rewritten.text === before) continue;
    const afterErrors = syntaxErrors(file, rewritten.text);
    if (afterErrors.length > 0)
      throw new PullFailedError(
        `pull would leave ${relative(project.projectDir, file)} unparsable (${afterErrors[0]}); nothing was written`,
        'please report this with the file; meanwhile edit by hand (monitor diff shows the values)',
      );
    const name = relative(project.projectDir, file);
    result.files.push({
      file,
      before,
      after: rewritten.text,
      // Without the `===` line the diff package starts with: as git prints it.
      patch: createTwoFilesPatch(`a/${name}`, `b/${name}`, before, rewritten.text, '', '', {
        context: 3,
      }).replace(/^=+\n/, ''),
    });
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
