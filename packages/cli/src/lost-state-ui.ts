import { isAbsolute, relative } from 'node:path';
import { KINDS, type ResourceKind } from '@monitor/api';
import type { LostState } from '@monitor/engine';
import { EXIT, type ExitCode } from './exit-codes.js';
import { paint } from './io.js';
import type { RunContext } from './output.js';

/** Where the missing state was looked for, and for what. */
export interface LostStateWhere {
  project: string;
  accountId: string;
  /** The state backend's location: a file, or a redacted database URL. */
  location: string;
}

/** Where a project's state is for `where`: a file shown relative to the working directory. */
export function stateWhere(
  project: string,
  accountId: string,
  location: string,
  cwd: string,
): LostStateWhere {
  return { project, accountId, location: isAbsolute(location) ? relative(cwd, location) || '.' : location };
}

function counted(lost: LostState): string {
  return Object.entries(lost.byKind)
    .map(([kind, n]) => `${n} ${KINDS[kind as ResourceKind].noun}${n === 1 ? '' : 's'}`)
    .join(', ');
}

/**
 * The one thing to say when the state is missing and the account holds the project's resources:
 * not a conflict per construct, each suggesting `adopt: true`, which would be the wrong fix.
 */
export function describeLostState(lost: LostState, where: LostStateWhere): { message: string; hint: string } {
  const n = lost.found;
  return {
    message: `${where.project} has no state in ${where.location}, yet account ${where.accountId} already holds ${n} resource${n === 1 ? '' : 's'} that match${n === 1 ? 'es' : ''} its constructs (${counted(lost)}): the state of its earlier deploys is missing. Nothing was changed`,
    hint: 'every run must see the state the last deploy wrote: in CI, commit .monitor/state/ back after each deploy (file backend) or set MONITOR_STATE_URL (PostgreSQL), see docs/ci.md; then record them as this project’s again with monitor import --recover',
  };
}

/** The lost state as the run's error (exit 3, as for conflicts): printed once, and in `--json`. */
export function reportLostState(lost: LostState, where: LostStateWhere, { io, out }: RunContext): ExitCode {
  const { message, hint } = describeLostState(lost, where);
  out.error = { code: 'state_missing', message, hint };
  if (!out.json) {
    const p = paint(io.color);
    io.stderr(`${p.red('error')}: ${message}\n${p.dim('hint')}: ${hint}\n`);
  }
  return EXIT.invalid;
}

/**
 * The same, for a pull-request comment or a job summary. Only fixed words, counts and the account
 * id (a UUID) go in: nothing from the code or the account that markdown could turn into a link.
 */
export function lostStateMarkdown(lost: LostState, accountId: string, command: string): string {
  const n = lost.found;
  return [
    `### monitor ${command}: the state is missing`,
    '',
    '> [!CAUTION]',
    `> This project has no state, yet account \`${accountId}\` already holds ${n} resource${n === 1 ? '' : 's'} that match${n === 1 ? 'es' : ''} its constructs (${counted(lost)}): the state of its earlier deploys is missing. Nothing was changed.`,
    '',
    'Every run must see the state the last deploy wrote: in CI, commit `.monitor/state/` back after each deploy (file backend) or set `MONITOR_STATE_URL` (PostgreSQL); see docs/ci.md. Then record them as this project’s again with `monitor import --recover`.',
    '',
  ].join('\n');
}
