import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  EngineError,
  hasChanges,
  plan,
  planToJson,
  readLive,
  renderPlanText,
  savePlan,
} from '@monitor/engine';
import type { Argv } from 'yargs';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { type Io, paint } from '../io.js';
import { connect, loadProject, type ProjectArgs, withProjectOptions } from '../project.js';

export interface DiffArgs extends ProjectArgs {
  detailedExitcode?: boolean | undefined;
  out?: string | undefined;
}

/** `monitor diff`: what a deploy would change, field by field. Reads only; takes no lock. */
export async function runDiff(args: DiffArgs, io: Io): Promise<ExitCode> {
  const project = await loadProject(args, io);
  if (typeof project === 'number') return project;
  const connection = await connect(args, io, project);
  try {
    const state = connection.store.read();
    const live = await readLive(connection.client);
    const now = new Date();
    const result = plan(project.resources, live, state, { now });
    const changed = hasChanges(result);
    if (args.out !== undefined) {
      const saved = savePlan(result, live, {
        accountId: connection.accountId,
        projectName: project.config.projectName,
        now,
      });
      const path = resolve(io.cwd, args.out);
      try {
        writeFileSync(path, `${JSON.stringify(saved, null, 2)}\n`);
      } catch (e) {
        throw new EngineError(
          'invalid_plan',
          `cannot write the plan to ${path}: ${(e as Error).message}`,
          'check that the directory exists and is writable',
        );
      }
    }
    if (args.json === true) {
      io.stdout(
        `${JSON.stringify({ ...planToJson(result), requests: connection.client.requestCount }, null, 2)}\n`,
      );
    } else {
      const p = paint(io.color);
      io.stdout(
        p.dim(
          `monitor diff: ${project.config.projectName} → account ${connection.accountId}${connection.local ? ' (local emulator)' : ''}\n\n`,
        ),
      );
      io.stdout(renderPlanText(result, p));
      if (args.out !== undefined) {
        io.stdout(
          p.dim(
            `\nSaved the plan to ${args.out}; apply exactly it with: monitor deploy --plan ${args.out}\n`,
          ),
        );
      }
    }
    return args.detailedExitcode === true && changed ? EXIT.changes : EXIT.ok;
  } finally {
    await connection.close();
  }
}

export const diffCommand = {
  command: 'diff',
  describe: 'Show what deploy would change in the account, field by field (reads only)',
  builder: (y: Argv) =>
    withProjectOptions(y)
      .option('detailed-exitcode', {
        type: 'boolean',
        describe: 'Exit 2 when there are changes, 0 when none (for CI)',
      })
      .option('out', {
        type: 'string',
        describe: 'Save the plan (with fingerprints of the live resources) for deploy --plan',
      })
      .example('$0 diff', 'preview the changes')
      .example('$0 diff --json > plan.json', 'the plan for a script or a pull-request comment')
      .example('$0 diff --out plan.json && $0 deploy --plan plan.json', 'apply exactly what was reviewed')
      .example('$0 diff --local', 'against the embedded emulator'),
};
