import { plan, readLive } from '@monitor/engine';
import type { Argv } from 'yargs';
import { type ApplyFlowArgs, confirmAndApply, withLockedProject } from '../apply-flow.js';
import type { ExitCode } from '../exit-codes.js';
import type { Io } from '../io.js';
import { type ProjectArgs, withProjectOptions } from '../project.js';
import { withApplyOptions } from './deploy.js';

export interface DestroyArgs extends ProjectArgs, ApplyFlowArgs {
  forceProtected?: boolean | undefined;
  lockTimeout?: number | undefined;
}

/** `monitor destroy`: delete every resource in state, referrers first; `protect` is kept unless forced. */
export function runDestroy(args: DestroyArgs, io: Io): Promise<ExitCode> {
  return withLockedProject('destroy', args, io, async (_project, connection) => {
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
    // Nothing is desired: every entry in state becomes a delete (or is kept when protected).
    const result = plan([], live, planned, { now: new Date() });
    return confirmAndApply('destroy', result, state, connection, args, io);
  });
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
