import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { checkSavedPlan, EngineError, parseSavedPlan, plan, readLive } from '@monitor/engine';
import type { Argv } from 'yargs';
import { type ApplyFlowArgs, confirmAndApply, withLockedProject } from '../apply-flow.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { type Io, paint } from '../io.js';
import { type ProjectArgs, withProjectOptions } from '../project.js';

export interface DeployArgs extends ProjectArgs, ApplyFlowArgs {
  plan?: string | undefined;
  lockTimeout?: number | undefined;
}

/** `monitor deploy`: make the account match the code (or apply exactly a saved plan). */
export async function runDeploy(args: DeployArgs, io: Io): Promise<ExitCode> {
  let savedText: string | undefined;
  if (args.plan !== undefined) {
    const path = resolve(io.cwd, args.plan);
    try {
      savedText = readFileSync(path, 'utf8');
    } catch (e) {
      throw new EngineError(
        'invalid_plan',
        `cannot read the saved plan ${path}: ${(e as Error).message}`,
        'save one with monitor diff --out plan.json',
      );
    }
  }
  const saved = savedText === undefined ? undefined : parseSavedPlan(savedText, args.plan ?? '');
  const note = saved === undefined ? '' : `, saved plan ${args.plan}`;
  return withLockedProject(
    'deploy',
    args,
    io,
    async (project, connection) => {
      const state = connection.store.read();
      const live = await readLive(connection.client);
      let result = plan(project.resources, live, state, { now: new Date() });
      if (saved !== undefined) {
        const checked = checkSavedPlan(saved, result, live, state);
        if (checked.stale.length > 0) {
          const p = paint(io.color);
          if (args.json === true) {
            io.stdout(
              `${JSON.stringify({ formatVersion: 1, stale: checked.stale, applied: false }, null, 2)}\n`,
            );
          }
          io.stderr(
            `${p.red('error')}: the saved plan ${args.plan} is stale; nothing was changed:\n${checked.stale.map((s) => `  - ${s}`).join('\n')}\n${p.dim('hint')}: make a new one with monitor diff --out ${args.plan}\n`,
          );
          return EXIT.stalePlan;
        }
        result = checked.plan;
      }
      return confirmAndApply('deploy', result, state, connection, args, io);
    },
    note,
  );
}

export function withApplyOptions<T>(y: Argv<T>) {
  return y
    .option('yes', {
      alias: 'y',
      type: 'boolean',
      describe: 'Apply without asking (needed when not on a terminal, e.g. in CI)',
    })
    .option('allow-deletes', {
      type: 'boolean',
      describe: 'Allow deleting resources in a non-interactive run',
    })
    .option('parallelism', {
      type: 'number',
      default: 8,
      describe: 'Operations in flight at once (under the client rate limit)',
    })
    .option('lock-timeout', {
      type: 'number',
      default: 0,
      describe: 'Seconds to wait for another deploy or destroy to release the state lock',
    });
}

export const deployCommand = {
  command: 'deploy',
  describe: 'Make the account match the code: create, update, adopt, move and delete',
  builder: (y: Argv) =>
    withApplyOptions(withProjectOptions(y))
      .option('plan', {
        type: 'string',
        describe: 'Apply exactly this plan from diff --out; exit 4 if the account or state moved since',
      })
      .example('$0 deploy', 'show the plan and ask before applying it')
      .example('$0 deploy --yes --allow-deletes', 'in CI')
      .example('$0 deploy --plan plan.json --yes', 'apply a reviewed plan')
      .example('$0 deploy --local --yes', 'against the embedded emulator'),
};
