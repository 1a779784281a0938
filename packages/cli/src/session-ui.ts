import { appendFileSync } from 'node:fs';
import type { CheckSession, Client } from '@monitor/api';
import { isPassing, waitForSessions } from '@monitor/engine/checks';
import { escapeTerminal } from '@monitor/engine/escape';
import type { AccountArgs } from './account.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import { CLEAR_LINE, type Io, paint } from './io.js';
import { commandLine } from './options.js';
import type { RunContext } from './output.js';
import {
  failedLocations,
  type Reporter,
  renderGithubSummary,
  renderJunit,
  renderSessionsText,
  sessionJson,
  summarize,
  summaryLine,
} from './session-report.js';
import { duration } from './tables.js';

export interface WaitArgs extends AccountArgs {
  timeout?: number | undefined;
  reporter?: Reporter | undefined;
}

export const DEFAULT_WAIT_SECONDS = 600;

/**
 * Wait for `ids` with progress on stderr, report them with the chosen reporter, and give the exit
 * code: 0 when every check passed (degraded counts as passed), 1 when one failed, 7 when some
 * still ran at `--timeout`, 130 on Ctrl-C (with the command that resumes the wait).
 */
export async function waitAndReport(
  client: Client,
  ids: string[],
  names: Map<string, string>,
  args: WaitArgs,
  ctx: RunContext,
): Promise<ExitCode> {
  const { io, out } = ctx;
  const p = paint(io.color);
  const timeoutSeconds = args.timeout ?? DEFAULT_WAIT_SECONDS;
  const started = Date.now();
  const progress = !out.json && args.reporter !== 'json';
  let done = 0;
  let failed = 0;
  const line = () =>
    `${CLEAR_LINE}${p.dim(`[${done}/${ids.length}]`)} ${failed > 0 ? p.red(`${failed} failed`) : `${done - failed} passed`}, ${ids.length - done} running  ${p.dim(duration(Date.now() - started))}`;
  const ticker = progress && io.interactive ? setInterval(() => io.stderr(line()), 1000) : undefined;
  const trap = io.trapInterrupts?.('stopping the wait; the sessions go on in the service');
  let outcome: Awaited<ReturnType<typeof waitForSessions>>;
  try {
    outcome = await waitForSessions(client, ids, {
      deadline: started + timeoutSeconds * 1000,
      signal: trap?.signal,
      onFinal: (session: CheckSession) => {
        done++;
        if (!isPassing(session)) failed++;
        if (!progress) return;
        if (io.interactive) {
          io.stderr(line());
          return;
        }
        const where = failedLocations(session);
        const mark = isPassing(session) ? p.green('✓') : p.red('✗');
        const what = `${session.name}: ${session.status}${where.length > 0 ? ` in ${where.join(', ')}` : ''}`;
        io.stderr(`${mark} ${escapeTerminal(what)} (${duration(session.timeElapsed)})\n`);
      },
    });
  } finally {
    if (ticker !== undefined) clearInterval(ticker);
    trap?.release();
  }
  if (progress && io.interactive) io.stderr(CLEAR_LINE);
  const summary = summarize(outcome);
  out.result = {
    ...out.result,
    sessions: outcome.finished.map(sessionJson),
    running: outcome.running,
    summary,
    interrupted: outcome.interrupted,
  };
  const resume = commandLine(args, 'sessions', 'wait', ...outcome.running);
  const reporter = args.reporter ?? 'text';
  if (reporter === 'junit') io.stdout(renderJunit(outcome, names, timeoutSeconds));
  else if (!out.json && reporter !== 'json') {
    io.stdout(renderSessionsText(outcome, io, p));
    io.stdout(
      `${summary.ok ? p.green('✓') : p.red('✗')} ${summaryLine(summary)} in ${duration(Date.now() - started)}\n`,
    );
  }
  if (reporter === 'github') writeStepSummary(renderGithubSummary(outcome, names), io);
  if (outcome.interrupted) {
    // The long polls in flight would hold the exit for up to 20 s.
    await client.destroy();
    const message = `interrupted: ${outcome.running.length} session${outcome.running.length === 1 ? '' : 's'} still running (they go on in the service)`;
    out.error = { code: 'interrupted', message, hint: `resume with ${resume}` };
    if (!out.json) io.stderr(`${message}\n${p.dim('resume with')}: ${resume}\n`);
    return EXIT.interrupted;
  }
  if (outcome.running.length > 0) {
    const message = `timed out after ${timeoutSeconds} s: ${outcome.running.length} session${outcome.running.length === 1 ? '' : 's'} still running`;
    out.error = {
      code: 'timeout',
      message,
      hint: `wait longer with ${resume} --timeout ${timeoutSeconds * 2}`,
    };
    if (!out.json)
      io.stderr(
        `${p.red('error')}: ${message}\n${p.dim('hint')}: wait longer with ${resume} --timeout ${timeoutSeconds * 2}\n`,
      );
    return EXIT.timeout;
  }
  if (!summary.ok) {
    out.error = { code: 'checks_failed', message: summaryLine(summary) };
    return EXIT.error;
  }
  return EXIT.ok;
}

/** `--reporter github`: markdown to the job's summary ($GITHUB_STEP_SUMMARY), or to stdout outside GitHub Actions. */
export function writeStepSummary(markdown: string, io: Io): void {
  const path = io.env.GITHUB_STEP_SUMMARY;
  if (path === undefined || path === '') {
    io.stderr(
      `${paint(io.color).yellow('warning')}: GITHUB_STEP_SUMMARY is not set (not in GitHub Actions); the summary follows\n`,
    );
    io.stdout(markdown);
  } else {
    appendFileSync(path, `${markdown}\n`);
  }
}
