import type { RootCauseAnalysis } from '@monitor/api';
import { pause as sleep } from '@monitor/api';
import { escapeTerminal } from '@monitor/engine/escape';
import type { Argv } from 'yargs';
import {
  type AccountArgs,
  type AccountConnection,
  connectAccount,
  explained,
  uuidArgument,
  withAccountOptions,
} from '../account.js';
import type { Subcommand } from '../command.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { CLEAR_LINE, type Paint, paint } from '../io.js';
import { commandLine, positiveSeconds, UsageError } from '../options.js';
import type { RunContext } from '../output.js';
import { duration, localTime, painted, renderFields } from '../tables.js';

const DEFAULT_TIMEOUT_SECONDS = 300;
const POLL_MS = 2000;

interface GenerateArgs extends AccountArgs {
  errorGroupId: string;
  testSession?: boolean | undefined;
  context?: string | undefined;
  wait?: boolean | undefined;
  timeout?: number | undefined;
}

interface GetArgs extends AccountArgs {
  id: string;
  wait?: boolean | undefined;
  timeout?: number | undefined;
}

const block = (title: string, body: string | undefined, p: Paint) =>
  body === undefined || body.trim() === ''
    ? ''
    : `\n${p.bold(title)}\n${escapeTerminal(body, { multiline: true })
        .split('\n')
        .map((l) => `    ${l}`)
        .join('\n')}\n`;

/** An analysis for people: what, the impact, the cause, the fix, the evidence and links. */
export function renderAnalysis(rca: RootCauseAnalysis, p: Paint): string {
  const a = rca.analysis;
  let out = renderFields(
    [
      ['analysis', rca.id],
      ['status', painted(p.green(escapeTerminal(rca.status)))],
      ['error group', rca.errorGroupId ?? undefined],
      ['check', rca.checkId ?? undefined],
      ['by', `${rca.provider} ${rca.model} in ${duration(rca.durationMs)}`],
      ['created', rca.created_at === undefined ? undefined : localTime(rca.created_at)],
    ],
    p,
  );
  if (a === undefined) return out;
  out += block('Classification', a.classification, p);
  out += block('User impact', a.userImpact, p);
  out += block('Root cause', a.rootCause, p);
  out += block('Fix', a.codeFix, p);
  if (a.evidence.length > 0) {
    out += `\n${p.bold('Evidence')}\n`;
    for (const e of a.evidence) {
      const artifacts = escapeTerminal(e.artifacts.map((x) => `${x.name} (${x.type})`).join(', '));
      out += `    - ${escapeTerminal(e.description)}${artifacts === '' ? '' : p.dim(`  [${artifacts}]`)}\n`;
    }
  }
  if (a.referenceLinks.length > 0) {
    out += `\n${p.bold('References')}\n`;
    for (const l of a.referenceLinks) out += `    - ${escapeTerminal(`${l.title}: ${l.url}`)}\n`;
  }
  return out;
}

/**
 * Poll an analysis every 2 s until COMPLETED, with a line of progress on a terminal: exit 7 at the
 * timeout and 130 on Ctrl-C, each saying how to read it later.
 */
async function waitForAnalysis(
  account: AccountConnection,
  id: string,
  args: AccountArgs & { timeout?: number | undefined },
  ctx: RunContext,
): Promise<ExitCode> {
  const { io, out } = ctx;
  const p = paint(io.color);
  const timeoutSeconds = args.timeout ?? DEFAULT_TIMEOUT_SECONDS;
  const started = Date.now();
  const later = commandLine(args, 'rca', 'get', id, '--wait');
  const trap = io.trapInterrupts?.('stopping the wait; the analysis goes on in the service');
  try {
    for (;;) {
      const rca = await account.client.rootCauseAnalyses.get(id);
      if (rca.status === 'COMPLETED') {
        if (io.interactive && !out.json) io.stderr(CLEAR_LINE);
        out.result = { ...out.result, analysis: rca };
        if (!out.json) io.stdout(renderAnalysis(rca as RootCauseAnalysis, p));
        return EXIT.ok;
      }
      const elapsed = Date.now() - started;
      if (!out.json) {
        if (io.interactive)
          io.stderr(`${CLEAR_LINE}${p.dim(escapeTerminal(`analysis ${id}: PENDING, ${duration(elapsed)}`))}`);
      }
      if (trap?.signal.aborted === true || elapsed >= timeoutSeconds * 1000) {
        if (io.interactive && !out.json) io.stderr('\n');
        const interrupted = trap?.signal.aborted === true;
        const message = interrupted
          ? `interrupted: analysis ${id} is still PENDING (it goes on in the service)`
          : `timed out after ${timeoutSeconds} s: analysis ${id} is still PENDING`;
        out.result = { ...out.result, analysis: rca };
        out.error = {
          code: interrupted ? 'interrupted' : 'timeout',
          message,
          hint: `read it later with ${later}`,
        };
        if (!out.json)
          io.stderr(
            `${interrupted ? '' : `${p.red('error')}: `}${escapeTerminal(message)}\n${p.dim('hint')}: read it later with ${later}\n`,
          );
        return interrupted ? EXIT.interrupted : EXIT.timeout;
      }
      await sleep(Math.min(POLL_MS, Math.max(0, timeoutSeconds * 1000 - elapsed)), trap?.signal);
    }
  } finally {
    trap?.release();
  }
}

/** `monitor rca generate <errorGroupId>`: ask for a root cause analysis, and with --wait read it. */
async function generate(args: GenerateArgs, ctx: RunContext): Promise<ExitCode> {
  const { io, out } = ctx;
  const context = args.context;
  if (context !== undefined && context.length > 256) {
    throw new UsageError(
      `--context is ${context.length} characters; the service takes at most 256`,
      'shorten it to the one detail that helps most',
    );
  }
  const errorGroupId = uuidArgument(
    `the ${args.testSession === true ? 'test-session ' : ''}error group id`,
    args.errorGroupId,
    'list the error groups and their ids with monitor error-groups list',
  );
  const account = await connectAccount(args, ctx);
  try {
    const target = args.testSession === true ? { testSessionErrorGroupId: errorGroupId } : { errorGroupId };
    const pending = await explained(
      account.client.rootCauseAnalyses.generate(
        target,
        context === undefined ? {} : { userContext: context },
      ),
      {
        not_found: `no ${args.testSession === true ? 'test-session ' : ''}error group ${errorGroupId} in account ${account.accountId}; list them with monitor error-groups list`,
        payment_required: "the account's plan does not include root cause analyses",
      },
    );
    out.result = { requested: pending };
    if (!out.json)
      io.stderr(
        paint(io.color).dim(
          `${escapeTerminal(`Requested root cause analysis ${pending.id} (${pending.status})`)}\n`,
        ),
      );
    if (args.wait !== true) {
      if (!out.json)
        io.stdout(
          `${escapeTerminal(pending.id)}\nRead it when it is ready: ${commandLine(args, 'rca', 'get', pending.id, '--wait')}\n`,
        );
      return EXIT.ok;
    }
    return await waitForAnalysis(account, pending.id, args, ctx);
  } finally {
    await account.close();
  }
}

/** `monitor rca get <id>`: an analysis, or that it is still PENDING; --wait until it is not. */
async function get(args: GetArgs, ctx: RunContext): Promise<ExitCode> {
  const { io, out } = ctx;
  const id = String(args.id).trim();
  const account = await connectAccount(args, ctx);
  try {
    const rca = await explained(account.client.rootCauseAnalyses.get(id), {
      not_found: `no root cause analysis ${id} in account ${account.accountId}; the ids are printed by monitor rca generate and listed by monitor error-groups get`,
    });
    if (rca.status === 'PENDING' && args.wait === true) return await waitForAnalysis(account, id, args, ctx);
    out.result = { analysis: rca };
    if (out.json) return EXIT.ok;
    const p = paint(io.color);
    if (rca.status === 'PENDING') {
      io.stdout(
        `analysis ${escapeTerminal(id)}: ${p.yellow('PENDING')}; wait for it with ${commandLine(args, 'rca', 'get', id, '--wait')}\n`,
      );
    } else {
      io.stdout(renderAnalysis(rca as RootCauseAnalysis, p));
    }
    return EXIT.ok;
  } finally {
    await account.close();
  }
}

const timeoutOption = {
  type: 'string' as const,
  coerce: positiveSeconds('timeout'),
  describe: `With --wait: seconds to wait (default ${DEFAULT_TIMEOUT_SECONDS}); exit 7 when it is still PENDING`,
};

export const subcommands: Subcommand[] = [
  {
    command: 'generate <errorGroupId>',
    describe: 'Ask for a root cause analysis of an error group; --wait shows it when it is COMPLETED',
    builder: (y: Argv) =>
      withAccountOptions(y)
        .positional('errorGroupId', {
          type: 'string',
          describe: 'The error group (see monitor error-groups list)',
        })
        .option('test-session', { type: 'boolean', describe: 'The id is of a test-session error group' })
        .option('context', {
          type: 'string',
          describe: 'What you know that may help, at most 256 characters',
        })
        .option('wait', { type: 'boolean', describe: 'Wait until the analysis is COMPLETED, and show it' })
        .option('timeout', timeoutOption)
        .example('$0 rca generate c1a2… --context "started after the 14:00 deploy" --wait', 'why it fails'),
    run: generate,
  },
  {
    command: 'get <id>',
    describe: 'Show a root cause analysis, or that it is still PENDING',
    builder: (y: Argv) =>
      withAccountOptions(y)
        .positional('id', { type: 'string', describe: 'The analysis id (from monitor rca generate)' })
        .option('wait', { type: 'boolean', describe: 'Wait while it is PENDING' })
        .option('timeout', timeoutOption),
    run: get,
  },
];
