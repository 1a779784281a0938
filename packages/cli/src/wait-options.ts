import type { Argv } from 'yargs';
import { positiveSeconds, UsageError } from './options.js';
import { REPORTERS } from './session-report.js';
import { DEFAULT_WAIT_SECONDS } from './session-ui.js';

/** `--timeout` and `--reporter` of the commands that wait for check sessions. */
export function withWaitOptions<T>(y: Argv<T>) {
  return y
    .option('timeout', {
      type: 'string',
      coerce: positiveSeconds('timeout'),
      describe: `Seconds to wait for the sessions to finish (default ${DEFAULT_WAIT_SECONDS}); exit 7 when some still run`,
    })
    .option('reporter', {
      choices: REPORTERS,
      describe:
        'text for people; json the envelope (as --json); junit XML on stdout for CI test reports; github: a markdown summary to $GITHUB_STEP_SUMMARY',
    })
    .check((args) => {
      if (args.reporter === 'junit' && args.json === true) {
        throw new UsageError(
          '--reporter junit and --json both want stdout',
          'choose one: the XML, or the envelope',
        );
      }
      return true;
    });
}
