import type { Argv } from 'yargs';
import { UsageError } from './options.js';
import { REPORTERS } from './session-report.js';
import { DEFAULT_WAIT_SECONDS } from './session-ui.js';

/** A number of seconds above 0, or a usage error naming the option. */
export function seconds(option: string) {
  return (value: unknown): number => {
    const n = Number(String(value).trim());
    if (String(value).trim() === '' || !Number.isFinite(n) || n <= 0) {
      throw new UsageError(
        `--${option} must be a number of seconds above 0, got "${String(value)}"`,
        `e.g. --${option} 300`,
      );
    }
    return n;
  };
}

/** `--timeout` and `--reporter` of the commands that wait for check sessions. */
export function withWaitOptions<T>(y: Argv<T>) {
  return y
    .option('timeout', {
      type: 'string',
      coerce: seconds('timeout'),
      describe: `Seconds to wait for the sessions to finish (default ${DEFAULT_WAIT_SECONDS}); exit 7 when some still run`,
    })
    .option('reporter', {
      choices: REPORTERS,
      describe:
        'text for people; json the envelope (as --json); junit XML on stdout for CI test reports; github: a markdown summary to $GITHUB_STEP_SUMMARY',
    });
}
