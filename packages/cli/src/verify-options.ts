import type { Argv } from 'yargs';
import { type ProjectArgs, positiveSeconds, UsageError, type VerifyMode, verifyModeOf } from './options.js';

// The options of verification, apart from what runs it: a command's --help loads only this.

export const DEFAULT_VERIFY_SECONDS = 600;
export const VERIFY_REPORTERS = ['text', 'junit', 'github'] as const;
export type VerifyReporter = (typeof VERIFY_REPORTERS)[number];

export interface VerifyReportArgs extends ProjectArgs {
  verifyTimeout?: number | undefined;
  rca?: boolean | undefined;
  reporter?: VerifyReporter | undefined;
}

/** `--verify-timeout`, `--rca` and `--reporter`, shared by `deploy --verify` and `monitor verify`. */
export function withVerifyReportOptions<T>(y: Argv<T>) {
  return y
    .option('verify-timeout', {
      type: 'string',
      coerce: positiveSeconds('verify-timeout'),
      describe: `Seconds the checks (and analyses) may take (default ${DEFAULT_VERIFY_SECONDS}); exit 7 when some still run`,
    })
    .option('rca', {
      type: 'boolean',
      describe: 'Ask for a root cause analysis of each new error group, and wait for it within the timeout',
    })
    .option('reporter', {
      choices: VERIFY_REPORTERS,
      describe:
        'How the verification is reported: text; junit XML on stdout for CI test reports (the rest goes to stderr); github: a markdown summary to $GITHUB_STEP_SUMMARY',
    })
    .check((args) => {
      if (args.reporter === 'junit' && (args as { json?: unknown }).json === true) {
        throw new UsageError(
          '--reporter junit and --json both want stdout',
          'choose one: the XML, or the envelope',
        );
      }
      return true;
    })
    .group(['verify-timeout', 'rca', 'reporter'], 'Verification:');
}

export interface DeployVerifyArgs extends VerifyReportArgs {
  verify?: VerifyMode | undefined;
}

/** `deploy --verify [changed|all|strict]` and the options of its report. */
export function withDeployVerifyOptions<T>(y: Argv<T>) {
  return withVerifyReportOptions(
    y.option('verify', {
      type: 'string',
      coerce: verifyModeOf,
      describe:
        'After the apply, run the checks of the check groups it created or changed in a way that affects runs, and report them against how they stood before: exit 8 when one broke with this deploy (it stays applied). all: every group of the project; strict: fail on any failure or degradation',
    }),
  ).check((args) => {
    const a = args as { verify?: unknown; rca?: unknown; verifyTimeout?: unknown; reporter?: unknown };
    const without = [
      a.rca === true ? '--rca' : undefined,
      a.verifyTimeout === undefined ? undefined : '--verify-timeout',
      a.reporter === undefined ? undefined : '--reporter',
    ].filter((f) => f !== undefined);
    if (a.verify === undefined && without.length > 0) {
      throw new UsageError(
        `${without.join(' and ')} ${without.length === 1 ? 'is' : 'are'} about verification: add --verify`,
      );
    }
    return true;
  });
}
