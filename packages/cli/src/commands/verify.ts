import type { Argv } from 'yargs';
import type { ExitCode } from '../exit-codes.js';
import { type ProjectArgs, withProjectOptions } from '../options.js';
import type { RunContext } from '../output.js';
import { DEFAULT_VERIFY_SECONDS, type VerifyReportArgs, withVerifyReportOptions } from '../verify-options.js';

export interface VerifyArgs extends ProjectArgs, VerifyReportArgs {
  target?: string[] | undefined;
  sinceDeploy?: boolean | undefined;
  strict?: boolean | undefined;
}

export const builder = (y: Argv) =>
  withVerifyReportOptions(
    withProjectOptions(y)
      .option('target', {
        type: 'string',
        array: true,
        describe: 'Only this check group: a logical id or CheckGroup:logicalId (repeatable)',
      })
      .option('since-deploy', {
        type: 'boolean',
        describe:
          'The check groups the last deploy changed (as state records it), judged against how their checks stood before it (kept by deploy --verify; else their status now, and error groups new since the deploy)',
      })
      .option('strict', {
        type: 'boolean',
        describe: 'Fail on any failure or degradation, not only on a check that broke since the baseline',
      }),
  )
    .example('$0 verify', 'run the checks of every check group the project owns')
    .example('$0 verify --since-deploy --rca', 'the groups the last deploy changed, with root causes')
    .example('$0 verify --target payments --reporter junit > verify.xml', 'one group, as a CI test report')
    .epilogue(
      'Runs the checks of deployed check groups and tells each run apart from how the check stood before, location by location and error group by error group: newly failing (a location or error group that fails only now), still failing, failed on its first run, fixed, degraded or passed. Exit 8 when one is newly failing (with --strict: any failure), 7 when the checks outlast --verify-timeout. Nothing is changed in the account but the check sessions it starts. See docs/deploy.md#verification.',
    );

/** `monitor verify`: the verification of `deploy --verify`, without deploying. */
export async function run(args: VerifyArgs, given: RunContext): Promise<ExitCode> {
  const [
    { verifyProject },
    { headerLine, loadAndConnect },
    { reportingContext, reportVerification, verifyProgress },
  ] = await Promise.all([import('@monitor/engine'), import('../project.js'), import('../verify-ui.js')]);
  const { ctx, xml: xmlOut } = reportingContext(args.reporter, given);
  const connected = await loadAndConnect(args, ctx);
  if (typeof connected === 'number') return connected;
  const { project, connection } = connected;
  if (!ctx.out.json) ctx.io.stdout(`${headerLine('verify', project, connection).trimEnd()}\n`);
  const trap = ctx.io.trapInterrupts?.('stopping the wait for the checks; the sessions go on in the service');
  const progress = verifyProgress(ctx);
  try {
    const report = await verifyProject(connection.target, {
      ...(args.target === undefined ? {} : { targets: args.target }),
      sinceDeploy: args.sinceDeploy === true,
      strict: args.strict === true,
      rca: args.rca === true,
      timeoutMs: (args.verifyTimeout ?? DEFAULT_VERIFY_SECONDS) * 1000,
      ...(trap === undefined ? {} : { signal: trap.signal }),
      onStart: (groups) => progress({ type: 'verify-start', groups }),
      onRun: (run) => progress({ type: 'verify-run', run }),
    });
    // The long polls in flight would hold the exit for up to 20 s.
    if (report.outcome === 'interrupted') await connection.target.client.destroy();
    return reportVerification(report, args, ctx, xmlOut);
  } finally {
    trap?.release();
    await connection.close();
  }
}
