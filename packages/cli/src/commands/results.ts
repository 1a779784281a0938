import type { CheckResult } from '@monitor/api';
import { escapeTerminal } from '@monitor/engine/escape';
import type { Argv } from 'yargs';
import { type AccountArgs, connectAccount, explained, uuidArgument, withAccountOptions } from '../account.js';
import type { Subcommand } from '../command.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { type Paint, paint } from '../io.js';
import { commandLine } from '../options.js';
import type { RunContext } from '../output.js';
import { duration, localTime, painted, renderFields } from '../tables.js';

interface GetArgs extends AccountArgs {
  checkId: string;
  resultId: string;
  full?: boolean | undefined;
}

const ID_HINT = 'the result ids of a session are listed by monitor sessions get <sessionId>';
/** A response body or job log is cut here unless --full. */
const SHOWN_CHARS = 2000;

type Loose = Record<string, unknown>;
const obj = (v: unknown): Loose | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Loose) : undefined;
const text = (v: unknown) =>
  v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v);

function cutText(body: string, full: boolean): string {
  if (full || body.length <= SHOWN_CHARS) return body;
  return `${body.slice(0, SHOWN_CHARS)}\n… ${body.length - SHOWN_CHARS} more characters (--full shows all)`;
}

const indent = (s: string, by = '    ') =>
  s
    .split('\n')
    .map((l) => `${by}${l}`)
    .join('\n');

function headerLines(headers: unknown): string[] {
  const h = obj(headers);
  if (h === undefined) return [];
  return Object.entries(h).map(([k, v]) => escapeTerminal(`${k}: ${text(v)}`));
}

/** An API check's request, response, timings and assertions. */
function apiDetails(api: Loose, p: Paint, full: boolean): string {
  const out: string[] = [];
  const request = obj(api.request);
  if (request !== undefined) {
    out.push(
      p.bold('Request'),
      `    ${escapeTerminal(`${text(request.method)} ${text(request.url)}`)}`,
      ...headerLines(request.headers).map((l) => `    ${l}`),
    );
  }
  const response = obj(api.response);
  if (response !== undefined) {
    out.push(
      p.bold('Response'),
      `    status ${escapeTerminal(text(response.status))}`,
      ...headerLines(response.headers).map((l) => `    ${l}`),
    );
    const body = text(response.body);
    if (body !== '') out.push('', indent(escapeTerminal(cutText(body, full), { multiline: true })));
    const phases = obj(response.timingPhases);
    if (phases !== undefined) {
      out.push(
        p.bold('Timings'),
        `    ${Object.entries(phases)
          .map(([k, v]) => `${escapeTerminal(k)} ${duration(Number(v))}`)
          .join(' · ')}`,
      );
    }
  }
  const assertions = Array.isArray(api.assertions)
    ? (api.assertions as unknown[]).map(obj).filter((a) => a !== undefined)
    : [];
  if (assertions.length > 0) {
    out.push(p.bold('Assertions'));
    for (const a of assertions) {
      const passed = a.actual === undefined ? undefined : comparePassed(a);
      const mark = passed === undefined ? '·' : passed ? p.green('✓') : p.red('✗');
      const property = text(a.property);
      const assertion = `${text(a.source)}${property === '' ? '' : ` ${property}`} ${text(a.comparison)} ${JSON.stringify(text(a.target))}${a.actual === undefined ? '' : `, got ${JSON.stringify(text(a.actual))}`}`;
      out.push(`    ${mark} ${escapeTerminal(assertion)}`);
    }
  }
  if (api.requestError !== null && api.requestError !== undefined) {
    out.push(
      p.bold('Request error'),
      p.red(indent(escapeTerminal(text(api.requestError), { multiline: true }))),
    );
  }
  return `${out.join('\n')}\n`;
}

/** Whether an assertion held, for the comparisons that can be judged from target and actual. */
function comparePassed(a: Loose): boolean | undefined {
  const target = text(a.target);
  const actual = text(a.actual);
  switch (a.comparison) {
    case 'EQUALS':
      return actual === target;
    case 'NOT_EQUALS':
      return actual !== target;
    case 'CONTAINS':
      return actual.includes(target);
    case 'NOT_CONTAINS':
      return !actual.includes(target);
    case 'GREATER_THAN':
      return Number(actual) > Number(target);
    case 'LESS_THAN':
      return Number(actual) < Number(target);
    default:
      return undefined;
  }
}

/** A browser, multi-step or Playwright run: its errors and the end of its job log. */
function scriptDetails(result: Loose, p: Paint, full: boolean): string {
  const out: string[] = [];
  const errors = Array.isArray(result.errors) ? (result.errors as unknown[]).map(text) : [];
  out.push(
    p.bold('Errors'),
    ...(errors.length === 0
      ? ['    none']
      : errors.map((e) => p.red(indent(escapeTerminal(e, { multiline: true }))))),
  );
  const log = Array.isArray(result.jobLog)
    ? (result.jobLog as unknown[]).map((l) => (obj(l)?.msg !== undefined ? text(obj(l)?.msg) : text(l)))
    : [];
  if (log.length > 0) {
    const shown = full ? log : log.slice(-40);
    out.push(
      p.bold(
        `Job log${shown.length < log.length ? ` (last ${shown.length} of ${log.length} lines; --full shows all)` : ''}`,
      ),
      ...shown.map((l) => indent(escapeTerminal(l, { multiline: true }))),
    );
  }
  return `${out.join('\n')}\n`;
}

function outcomeOf(r: CheckResult): string {
  if (r.isCancelled === true) return 'cancelled';
  if (r.hasErrors || r.hasFailures) return 'failed';
  return r.isDegraded === true ? 'degraded' : 'passed';
}

/** `monitor results get <checkId> <resultId>`: one result in full, by check type. */
async function get(args: GetArgs, ctx: RunContext): Promise<ExitCode> {
  const { io, out } = ctx;
  const checkId = uuidArgument('the check id', args.checkId, ID_HINT);
  const resultId = uuidArgument('the result id', args.resultId, ID_HINT);
  const account = await connectAccount(args, ctx);
  try {
    const result = await explained(account.client.checkResults.get(checkId, resultId), {
      not_found: `no result ${resultId} of check ${checkId} in account ${account.accountId}; ${ID_HINT}`,
    });
    out.result = { result };
    if (out.json) return EXIT.ok;
    const p = paint(io.color);
    const outcome = outcomeOf(result);
    io.stdout(
      renderFields(
        [
          ['check', `${result.name ?? ''} (${result.checkId})`],
          [
            'result',
            painted(
              outcome === 'passed'
                ? p.green(outcome)
                : outcome === 'failed'
                  ? p.red(outcome)
                  : p.yellow(outcome),
            ),
          ],
          ['location', result.runLocation],
          ['kind', result.resultType],
          ['started', localTime(result.startedAt)],
          [
            'response',
            result.responseTime === null || result.responseTime === undefined
              ? undefined
              : duration(result.responseTime),
          ],
          ['attempts', result.attempts === undefined ? undefined : String(result.attempts)],
          [
            'over max',
            result.overMaxResponseTime === true ? 'the response took longer than the maximum' : undefined,
          ],
          [
            'error groups',
            result.errorGroupIds !== undefined && result.errorGroupIds.length > 0
              ? result.errorGroupIds.join(', ')
              : undefined,
          ],
        ],
        p,
      ),
    );
    const full = args.full === true;
    const api = obj(result.apiCheckResult);
    const script =
      obj(result.browserCheckResult) ?? obj(result.multiStepCheckResult) ?? obj(result.playwrightCheckResult);
    if (api !== undefined) io.stdout(`\n${apiDetails(api, p, full)}`);
    else if (script !== undefined) io.stdout(`\n${scriptDetails(script, p, full)}`);
    if (result.errorGroupIds !== undefined && result.errorGroupIds.length > 0) {
      io.stdout(
        p.dim(
          `\nAsk for a root cause analysis: ${commandLine(args, 'rca', 'generate', result.errorGroupIds[0] ?? '', '--wait')}\n`,
        ),
      );
    }
    return EXIT.ok;
  } finally {
    await account.close();
  }
}

export const subcommands: Subcommand[] = [
  {
    command: 'get <checkId> <resultId>',
    describe:
      'Show one check result in full: the request and response of an API check, the errors and log of a browser run',
    builder: (y: Argv) =>
      withAccountOptions(y)
        .positional('checkId', { type: 'string', describe: 'The check id' })
        .positional('resultId', { type: 'string', describe: 'The result id (from monitor sessions get)' })
        .option('full', { type: 'boolean', describe: 'The whole response body and job log, uncut' })
        .example('$0 results get 8f9a… 41c2…', 'why a run failed'),
    run: get,
  },
];
