import { acquireLock, plan, readLive } from '@monitor/engine';
import type { Argv } from 'yargs';
import { type ApplyFlowArgs, confirmAndApply } from '../apply-flow.js';
import type { ExitCode } from '../exit-codes.js';
import { type Io, paint } from '../io.js';
import { connect, loadProject, type ProjectArgs, withProjectOptions } from '../project.js';
import { withApplyOptions } from './deploy.js';

export interface DestroyArgs extends ProjectArgs, ApplyFlowArgs {
  forceProtected?: boolean | undefined;
  lockTimeout?: number | undefined;
}

/** `monitor destroy`: delete every resource in state, referrers first; `protect` is kept unless forced. */
export async function runDestroy(args: DestroyArgs, io: Io): Promise<ExitCode> {
  const project = await loadProject(args, io);
  if (typeof project === 'number') return project;
  const connection = await connect(args, io, project);
  try {
    const release = await acquireLock(connection.lockPath, {
      timeoutMs: (args.lockTimeout ?? 0) * 1000,
      command: 'monitor destroy',
    });
    try {
      const state = connection.store.read();
      const planned =
        args.forceProtected === true
          ? {
              ...state,
              resources: Object.fromEntries(
                Object.entries(state.resources).map(([k, e]) => [k, { ...e, protect: false }]),
              ),
            }
          : state;
      const live = await readLive(connection.client);
      const result = plan([], live, planned, { now: new Date() });
      if (args.json !== true) {
        const p = paint(io.color);
        io.stdout(
          p.dim(
            `monitor destroy: ${project.config.projectName} → account ${connection.accountId}${connection.local ? ' (local emulator)' : ''}\n\n`,
          ),
        );
      }
      return await confirmAndApply('destroy', result, state, connection, args, io);
    } finally {
      release();
    }
  } finally {
    await connection.close();
  }
}

export const destroyCommand = {
  command: 'destroy',
  describe: 'Delete every resource this project owns (those in state); protected ones are kept',
  builder: (y: Argv) =>
    withApplyOptions(withProjectOptions(y))
      .option('force-protected', {
        type: 'boolean',
        describe: 'Also delete resources marked protect: true',
      })
      .example('$0 destroy', 'show what would be deleted and ask')
      .example('$0 destroy --yes --allow-deletes', 'non-interactive'),
};
