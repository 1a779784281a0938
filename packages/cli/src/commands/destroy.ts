import type { Argv } from 'yargs';
import type { ExitCode } from '../exit-codes.js';
import { type ApplyArgs, type ProjectArgs, withApplyOptions, withProjectOptions } from '../options.js';
import type { RunContext } from '../output.js';

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
  const [{ destroy }, { runApplyCommand }] = await Promise.all([
    import('@monitor/engine'),
    import('../apply-ui.js'),
  ]);
  return runApplyCommand('destroy', args, ctx, (target, options) =>
    destroy(target, { ...options, forceProtected: args.forceProtected === true }),
  );
}
