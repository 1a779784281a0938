import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ProjectLoadError } from '../errors.js';
import type { ByPhysicalId } from '../identity.js';
import { inDeclaredOrder } from '../live/read-live.js';
import { type UnseenSecrets, unseenSecrets } from '../live/unseen.js';
import { load } from '../load/load.js';
import { plan } from '../plan/plan.js';
import type { Live, Plan } from '../plan/types.js';
import { sourceReader } from '../positions/source-reader.js';
import { rewriteContext } from '../pull/context.js';
import { editProjectFile, type Rewriter } from '../pull/edit-file.js';
import { placeNotPulled, placeResources } from '../pull/place.js';
import { driftedCount, planPull } from '../pull/plan-pull.js';
import { agreedEntries, type PulledFields, pulledFields } from '../pull/record.js';
import type { ManualEdit, PlacedNotPulled, PulledEdit, PulledFile, ResourcePull } from '../pull/types.js';
import { makePlan, type Scope } from './diff.js';
import { type LockedFlowOptions, lockedFlow } from './locked.js';
import { type AccountSnapshot, readAccount, type Target } from './target.js';

export type { UnseenSecrets } from '../live/unseen.js';
export { PullFailedError, PullSyntaxError } from '../pull/errors.js';
export { uncommittedFiles } from '../pull/git.js';
export type { PlacedNotPulled, PulledFile } from '../pull/types.js';

/**
 * `monitor pull`: the account's values of what drifted, written back into the project's
 * TypeScript at each construct's own call site. `pullEdits` reads and plans (and changes
 * nothing); `writePull` writes what it planned, then records in state that code and account now
 * agree on it. The stages that decide are in `pull/`.
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
  /** Changes pull does not bring back (secrets, fields the code changed too, fields no prop holds), at their prop's line. */
  notPulled: PlacedNotPulled[];
  /** Owned resources with fields the account changed: what the plan found. */
  drifted: number;
  /** What pull cannot see: secrets the service masks, and without the state secret whether any secret changed. */
  unseen: UnseenSecrets;
  requests: number;
  /** The plan pull read (what `diff` shows): the old and new value of each change, for `pull --pr`. */
  plan: Plan;
  /** The props pull writes of each construct, with the plan's changes each brings back. */
  resources: ResourcePull[];
  /** What `writePull` records in state once the files are written: not for display. */
  record: { fields: PulledFields[]; live: Live; otherOwners: ByPhysicalId<string> | undefined; now: Date };
}

/** Read, plan and rewrite in memory: what `pull` would write. Changes nothing. */
export async function pullEdits(target: Target, options: PullOptions = {}): Promise<PullResult> {
  // The values pulled into code list their fields as the kind declares them.
  const snapshot = (options.snapshot ?? readAccount(target)).then((s) => ({
    ...s,
    live: inDeclaredOrder(s.live),
  }));
  const now = options.now ?? new Date();
  const { plan: made, live } = await makePlan(target, 'apply', now, {
    snapshot,
    scope: { targets: options.targets },
  });
  const { state, requests, otherOwners } = await snapshot;
  const project = target.project;
  const pull = planPull(made, live, project.resources);
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
    notPulled: placeNotPulled(pull.notPulled, sourceReader()),
    drifted: driftedCount(made),
    unseen: unseenSecrets(state, live, made.secrets.keyed),
    requests,
    plan: made,
    resources: pull.resources,
    record: { fields: [], live, otherOwners, now },
  };
  const rewriter: Rewriter | undefined =
    placed.byFile.size > 0 ? await import('../pull/rewrite.js') : undefined;
  for (const [file, resources] of placed.byFile) {
    const one = editProjectFile(rewriter as Rewriter, project.projectDir, file, read(file), resources, ctx);
    result.pulled.push(...one.pulled);
    result.manual.push(...one.manual);
    if (one.edited !== undefined) result.files.push(one.edited);
  }
  result.record.fields = pulledFields(made, live, pull.resources, result.pulled);
  return result;
}

export type PullWriteOptions = Partial<LockedFlowOptions>;

export interface PullWritten {
  /** The state keys whose pulled fields state now records as agreed between code and account. */
  recorded: string[];
  /** Why nothing was recorded although files were written (the project no longer loads). */
  notRecorded?: string;
}

/**
 * Write what `pullEdits` planned, each file whole or not at all (a temporary file renamed over
 * it), holding the state lock; then load the project as it now is and record in state each
 * pulled field the code and the account agree on. Files come before state, as in import: a
 * failure leaves the fields as drift, never recorded without their code.
 */
export function writePull(
  target: Target,
  result: PullResult,
  options: PullWriteOptions = {},
): Promise<PullWritten> {
  return lockedFlow(target.backend, { command: 'monitor pull', ...options }, async () => {
    for (const f of result.files) {
      const temporary = join(dirname(f.file), `.${process.pid}.monitor-pull.tmp`);
      writeFileSync(temporary, f.after);
      renameSync(temporary, f.file);
    }
    return recordPulled(target, result);
  });
}

/** The project loaded again with the edits, planned over the account pull read, and the agreement recorded. */
async function recordPulled(target: Target, result: PullResult): Promise<PullWritten> {
  const { fields, live, otherOwners, now } = result.record;
  if (fields.length === 0) return { recorded: [] };
  const { project } = target;
  let reloaded: Awaited<ReturnType<typeof load>>;
  try {
    reloaded = await load({ config: project.configPath, environment: project.config.environment });
  } catch (e) {
    if (!(e instanceof ProjectLoadError)) throw e;
    return { recorded: [], notRecorded: `the project does not load with the edits: ${e.message}` };
  }
  const error = reloaded.diagnostics.find((d) => d.severity === 'error');
  if (error !== undefined)
    return { recorded: [], notRecorded: `the project has errors with the edits: ${error.message}` };
  const state = await target.backend.read();
  const after = plan(reloaded.resources, live, state, {
    now,
    secretKey: target.secretKey,
    ...(otherOwners === undefined ? {} : { otherOwners }),
  });
  const changes = agreedEntries(fields, { resources: reloaded.resources, plan: after }, state);
  if (Object.keys(changes).length === 0) return { recorded: [] };
  await target.backend.record(state, changes);
  await target.backend.commit(state);
  return { recorded: Object.keys(changes) };
}
