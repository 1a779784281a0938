import { relative } from 'node:path';
import type { RoutingTestResult } from '@monitor/engine';
import { escapeTerminal as t } from '@monitor/engine/escape';
import type { RoutesArgs } from './commands/routes.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import { diagnosticsToJson } from './format-diagnostics.js';
import { type Paint, paint } from './io.js';
import type { RunContext } from './output.js';

/** `monitor routes --test`: the config's routing tests, from the code or (`--live`) the account once deployed. */
export async function runRoutingTests(args: RoutesArgs, ctx: RunContext): Promise<ExitCode> {
  const judged = await judge(args, ctx);
  if (typeof judged === 'number') return judged;
  const { results, source } = judged;
  const { routingTestFindings } = await import('@monitor/engine');
  const { io, out } = ctx;
  const counts = countsOf(results);
  out.result = {
    source,
    tests: results.map((r) => resultJson(r, io.cwd)),
    summary: counts,
  };
  if (out.json)
    out.diagnostics = [...out.diagnostics, ...diagnosticsToJson(routingTestFindings(results), io.cwd)];
  const failed = counts.failed + counts.invalid;
  if (failed > 0) {
    out.error = {
      code: 'routing_tests_failed',
      message: `${failed} routing test${failed === 1 ? '' : 's'} failed`,
      hint: 'each failure says who the group pages and what the test expects: fix the code, or the test if the route is right',
    };
  }
  if (!out.json) printResults(results, counts, source, ctx);
  return failed > 0 ? EXIT.invalid : EXIT.ok;
}

type Source = 'code' | 'live';

/** The tests of the groups named (all with no ids), judged against the code or the account. */
async function judge(
  args: RoutesArgs,
  ctx: RunContext,
): Promise<{ results: RoutingTestResult[]; source: Source } | ExitCode> {
  const [{ accountRoutingTests, judgeAgainstCode }, { loadAndConnect, loadProject }] = await Promise.all([
    import('@monitor/engine'),
    import('./project.js'),
  ]);
  const only = (results: RoutingTestResult[]) =>
    (args.ids ?? []).length === 0 ? results : results.filter((r) => args.ids?.includes(r.group));
  if (args.live !== true) {
    const project = await loadProject(args, ctx);
    if (typeof project === 'number') return project;
    return {
      results: only(judgeAgainstCode(project.config.routingTests, project.resources, new Date())),
      source: 'code',
    };
  }
  const connected = await loadAndConnect(args, ctx, { readAccount: true });
  if (typeof connected === 'number') return connected;
  const { connection, snapshot } = connected;
  try {
    const results = await accountRoutingTests(connection.target, snapshot === undefined ? {} : { snapshot });
    return { results: only(results), source: 'live' };
  } finally {
    await connection.close();
  }
}

function countsOf(results: readonly RoutingTestResult[]) {
  const counts = { passed: 0, failed: 0, unjudged: 0, invalid: 0 };
  for (const r of results) counts[r.status]++;
  return counts;
}

function resultJson(r: RoutingTestResult, cwd: string): Record<string, unknown> {
  const { location, ...rest } = r;
  return {
    ...rest,
    file: location === undefined ? null : relative(cwd, location.file),
    line: location?.line ?? null,
    column: location?.column ?? null,
  };
}

const MARKS = { passed: '✓', failed: '✗', invalid: '✗', unjudged: '?' } as const;

function resultLine(r: RoutingTestResult, cwd: string, p: Paint): string {
  const at =
    r.location === undefined
      ? '(config)'
      : `${relative(cwd, r.location.file)}:${r.location.line}:${r.location.column}`;
  const color = r.status === 'passed' ? p.green : r.status === 'unjudged' ? p.yellow : p.red;
  const subject = r.group === '' ? '' : `${p.bold(t(r.group))} `;
  const message = r.event === undefined ? r.message : `${r.event}: ${r.message}`;
  const hint = r.hint === undefined || r.status === 'passed' ? '' : `\n    ${p.dim(`hint: ${t(r.hint)}`)}`;
  return `${p.dim(t(at))}  ${color(MARKS[r.status])} ${subject}${t(message)}${hint}`;
}

function printResults(
  results: readonly RoutingTestResult[],
  counts: ReturnType<typeof countsOf>,
  source: Source,
  { io }: RunContext,
): void {
  const p = paint(io.color);
  if (results.length === 0) {
    io.stdout(
      "No routing tests: add routingTests: [expectRoutes('group', { failure: ['channel'] })] to monitor.config.ts (docs/routing.md).\n",
    );
    return;
  }
  for (const r of results) io.stdout(`${resultLine(r, io.cwd, p)}\n`);
  const parts = [`${counts.passed} passed`, `${counts.failed + counts.invalid} failed`];
  if (counts.unjudged > 0) parts.push(`${counts.unjudged} not judged from the code`);
  const against = source === 'code' ? 'the code' : 'the account once the code is deployed';
  const line = `${results.length} routing expectation${results.length === 1 ? '' : 's'} against ${against}: ${parts.join(', ')}`;
  io.stdout(`${counts.failed + counts.invalid > 0 ? p.red(line) : line}\n`);
}
