import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { inDeclaredOrder } from '../live/read-live.js';
import { rewriteContext } from '../pull/context.js';
import { editProjectFile, type Rewriter } from '../pull/edit-file.js';
import { placeResources } from '../pull/place.js';
import { driftedCount, planPull } from '../pull/plan-pull.js';
import type { ManualEdit, NotPulled, PulledEdit, PulledFile } from '../pull/types.js';
import { makePlan, type Scope } from './diff.js';
import { type AccountSnapshot, readAccount, type Target } from './target.js';

export { PullFailedError, PullSyntaxError } from '../pull/errors.js';
export { uncommittedFiles } from '../pull/git.js';
export type { PulledFile } from '../pull/types.js';

/**
 * `monitor pull`: the account's values of what drifted, written back into the project's
 * TypeScript at each construct's own call site. `pullEdits` reads and plans (and changes
 * nothing); `writePull` writes what it planned. The stages that decide are in `pull/`.
 */

export interface PullOptions {
  /** Only these constructs (a logical id or `Kind:logicalId`). */
  targets?: Scope['targets'];
  /** @default new Date() */
  now?: Date;
  snapshot?: Promise<AccountSnapshot>;
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
  const placed = placeResources(pull.resources, project.files, ctx.display);
  const result: PullResult = {
    files: [],
    pulled: [],
    manual: placed.manual,
    notPulled: pull.notPulled,
    drifted: driftedCount(plan),
    requests,
  };
  const rewriter: Rewriter | undefined =
    placed.byFile.size > 0 ? await import('../pull/rewrite.js') : undefined;
  for (const [file, resources] of placed.byFile) {
    const one = editProjectFile(rewriter as Rewriter, project.projectDir, file, read(file), resources, ctx);
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
