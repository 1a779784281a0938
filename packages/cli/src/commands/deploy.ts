import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { deploy, InvalidPlanError, parseSavedPlan, type SavedPlan } from '@monitor/engine';
import type { Argv } from 'yargs';
import { type ApplyArgs, consent, finish, progressReporter, withApplyOptions } from '../apply-ui.js';
import type { ExitCode } from '../exit-codes.js';
import type { RunContext } from '../output.js';
import { connect, headerLine, loadProject, type ProjectArgs, withProjectOptions } from '../project.js';

export interface DeployArgs extends ProjectArgs, ApplyArgs {
  plan?: string | undefined;
}

export const builder = (y: Argv) =>
  withApplyOptions(withProjectOptions(y))
    .option('plan', {
      type: 'string',
      describe: 'Apply exactly this plan from diff --out; exit 4 if the account or state moved since',
    })
    .example('$0 deploy', 'show the plan and ask before applying it')
    .example('$0 deploy --yes --allow-deletes', 'in CI')
    .example('$0 deploy --plan plan.json --yes', 'apply a reviewed plan')
    .example('$0 deploy --local --yes', 'against the embedded emulator');

function readSavedPlan(path: string, cwd: string): SavedPlan {
  const absolute = resolve(cwd, path);
  let text: string;
  try {
    text = readFileSync(absolute, 'utf8');
  } catch (e) {
    throw new InvalidPlanError(
      `cannot read the saved plan ${absolute}: ${(e as Error).message}`,
      'save one with monitor diff --out plan.json',
    );
  }
  return parseSavedPlan(text, path);
}

/** `monitor deploy`: make the account match the code (or apply exactly a saved plan). */
export async function run(args: DeployArgs, ctx: RunContext): Promise<ExitCode> {
  const savedPlan = args.plan === undefined ? undefined : readSavedPlan(args.plan, ctx.io.cwd);
  const project = await loadProject(args, ctx);
  if (typeof project === 'number') return project;
  const connection = await connect(args, ctx, project);
  const note = args.plan === undefined ? '' : `, saved plan ${args.plan}`;
  const progress = progressReporter(ctx, () => headerLine('deploy', project, connection, note));
  const trap = ctx.io.trapInterrupts?.();
  try {
    const outcome = await deploy(connection.target, {
      command: 'monitor deploy',
      confirm: consent('deploy', args, ctx.io, connection.accountId),
      lockTimeoutMs: (args.lockTimeout ?? 0) * 1000,
      ...(args.parallelism === undefined ? {} : { parallelism: args.parallelism }),
      ...(trap === undefined ? {} : { signal: trap.signal }),
      ...(savedPlan === undefined ? {} : { savedPlan }),
      onEvent: (e) => progress.onEvent(e),
    });
    progress.end();
    return finish('deploy', outcome, ctx, args.plan);
  } finally {
    trap?.release();
    await connection.close();
  }
}
