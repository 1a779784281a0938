import type { Argv } from 'yargs';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { paint } from '../io.js';
import { type ProjectArgs, withProjectOptions } from '../options.js';
import type { RunContext } from '../output.js';

export interface OutputArgs extends ProjectArgs {
  ids?: string[] | undefined;
}

export const builder = (y: Argv) =>
  withProjectOptions(y)
    .positional('ids', {
      type: 'string',
      array: true,
      describe: 'Only these resources: a logical id or Kind:logicalId (default: every one the project owns)',
    })
    .example('$0 output', 'every resource the project owns: its id, and what the service assigned')
    .example('$0 output ops-dashboard --json', 'one resource, for a script')
    .epilogue(
      'From state and the live account. Never a secret: a key the service shows once is handed over by deploy (docs/deploy.md).',
    );

/** `monitor output`: the ids and the values the service assigned, of what the project owns. */
export async function run(args: OutputArgs, ctx: RunContext): Promise<ExitCode> {
  const { io, out } = ctx;
  const [{ outputs }, { loadAndConnect }, { renderTable }] = await Promise.all([
    import('@monitor/engine'),
    import('../project.js'),
    import('../tables.js'),
  ]);
  const connected = await loadAndConnect(args, ctx);
  if (typeof connected === 'number') return connected;
  const { connection } = connected;
  try {
    const found = await outputs(connection.target, args.ids ?? []);
    out.result = { outputs: found };
    if (out.json) return EXIT.ok;
    if (found.length === 0) {
      io.stdout('The project owns nothing in this account yet: deploy first.\n');
      return EXIT.ok;
    }
    const p = paint(io.color);
    io.stdout(
      renderTable(
        found,
        [
          { header: 'RESOURCE', value: (o) => o.key, shrink: true },
          { header: 'ID', value: (o) => String(o.physicalId) },
          {
            header: 'OUTPUTS',
            value: (o) =>
              o.status === 'gone'
                ? '(gone from the account)'
                : Object.entries(o.values)
                    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
                    .join('  '),
            shrink: true,
          },
        ],
        io,
        p,
      ),
    );
    return EXIT.ok;
  } finally {
    await connection.close();
  }
}
