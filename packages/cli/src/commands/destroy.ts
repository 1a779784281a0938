import { destroy } from '@monitor/engine';
import type { Argv } from 'yargs';
import { type ApplyArgs, consent, finish, progressReporter, withApplyOptions } from '../apply-ui.js';
import type { ExitCode } from '../exit-codes.js';
import type { RunContext } from '../output.js';
import { connect, headerLine, loadProject, type ProjectArgs, withProjectOptions } from '../project.js';

export interface DestroyArgs extends ProjectArgs, ApplyArgs {
  forceProtected?: boolean | undefined;
}

export const builder = (y: Argv) =>
  withApplyOptions(withProjectOptions(y))
    .option('force-protected', {
      type: 'boolean',
      describe: 'Also delete resources marked protect: true',
    })
    .example('$0 destroy', 'show what would be deleted and ask')
    .example('$0 destroy --yes --allow-deletes', 'non-interactive');

/** `monitor destroy`: delete every resource in state, referrers first; `protect` is kept unless forced. */
export async function run(args: DestroyArgs, ctx: RunContext): Promise<ExitCode> {
  const project = await loadProject(args, ctx);
  if (typeof project === 'number') return project;
  const connection = await connect(args, ctx, project);
  const progress = progressReporter(ctx, () => headerLine('destroy', project, connection));
  const trap = ctx.io.trapInterrupts?.();
  try {
    const outcome = await destroy(connection.target, {
      command: 'monitor destroy',
      confirm: consent('destroy', args, ctx.io, connection.accountId),
      lockTimeoutMs: (args.lockTimeout ?? 0) * 1000,
      forceProtected: args.forceProtected === true,
      ...(args.parallelism === undefined ? {} : { parallelism: args.parallelism }),
      ...(trap === undefined ? {} : { signal: trap.signal }),
      onEvent: (e) => progress.onEvent(e),
    });
    progress.end();
    return finish('destroy', outcome, ctx);
  } finally {
    trap?.release();
    await connection.close();
  }
}
