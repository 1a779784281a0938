/**
 * Exit codes of every command (design.md): the one table. `EXIT` names them for the code, and
 * `exitCodesLine` prints them for `--help` and the CLI reference, so a code added here is listed
 * everywhere.
 */
const TABLE = {
  ok: { code: 0, summary: 'ok' },
  error: { code: 1, summary: 'error' },
  /** `diff --detailed-exitcode` found changes */
  changes: { code: 2, summary: 'changes (diff --detailed-exitcode)' },
  /** invalid project: diagnostics, conflicts or policy errors were printed */
  invalid: { code: 3, summary: 'invalid project (or conflicts, policy errors)' },
  /** a saved plan is stale */
  stalePlan: { code: 4, summary: 'stale plan' },
  /** refused: confirmation or --allow-deletes needed in a non-interactive run */
  refused: { code: 5, summary: 'refused' },
  /** another deploy holds the lock */
  locked: { code: 6, summary: 'locked' },
  /** a wait ran out of time: trigger --wait, sessions wait, rca generate --wait, agent health --wait-ready, deploy --verify, verify */
  timeout: { code: 7, summary: 'a wait timed out' },
  /** deploy --verify or verify: a check failed (the deploy stays applied: nothing is rolled back) */
  verifyFailed: { code: 8, summary: 'verification failed (a deploy stays applied)' },
  /** Ctrl-C while waiting; what was started goes on, and the message says how to resume */
  interrupted: { code: 130, summary: 'interrupted' },
} as const;

type Table = typeof TABLE;

export const EXIT = Object.fromEntries(Object.entries(TABLE).map(([name, { code }]) => [name, code])) as {
  readonly [K in keyof Table]: Table[K]['code'];
};
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A name of the table: `invalid`, `locked`, … */
export type ExitName = keyof Table;

/**
 * What a command that reads the project's config (for the account, or the state) ends with when
 * the config is invalid: 3, as a project that does not load.
 */
const READS_CONFIG: readonly ExitName[] = ['invalid'];

/** Codes every command that loads the project can end with: a Ctrl-C while a policy runs, say. */
const LOADS: readonly ExitName[] = ['invalid', 'interrupted'];

/**
 * The codes each command can end with beside 0 and 1: what its own `--help` lists (and so
 * docs/cli.md). A command not named here ends with 0 or 1 only. `exit-codes.test.ts` holds each
 * command's module to it.
 */
export const COMMAND_EXITS: Readonly<Record<string, readonly ExitName[]>> = {
  validate: LOADS,
  diff: ['changes', ...LOADS],
  audit: LOADS,
  import: ['refused', 'locked', ...LOADS],
  pull: ['refused', 'locked', ...LOADS],
  deploy: ['stalePlan', 'refused', 'locked', 'timeout', 'verifyFailed', ...LOADS],
  verify: ['timeout', 'verifyFailed', ...LOADS],
  destroy: ['refused', 'locked', ...LOADS],
  output: LOADS,
  routes: LOADS,
  maintenance: LOADS,
  state: ['stalePlan', 'refused', 'locked', ...READS_CONFIG],
  whoami: READS_CONFIG,
  projects: READS_CONFIG,
  ci: READS_CONFIG,
  checks: READS_CONFIG,
  results: READS_CONFIG,
  incidents: READS_CONFIG,
  'status-pages': READS_CONFIG,
  'private-locations': READS_CONFIG,
  'test-sessions': READS_CONFIG,
  analytics: READS_CONFIG,
  'error-groups': READS_CONFIG,
  trigger: ['timeout', 'interrupted', ...READS_CONFIG],
  sessions: ['timeout', 'interrupted', ...READS_CONFIG],
  rca: ['timeout', 'interrupted', ...READS_CONFIG],
  agent: ['timeout', 'interrupted'],
};

/**
 * `Exit codes: 0 ok, 1 error, …, 130 interrupted.`: every code of the table in order, or with
 * `command`, the codes that command can end with.
 */
export function exitCodesLine(command?: string): string {
  const names: ExitName[] | undefined =
    command === undefined ? undefined : ['ok', 'error', ...(COMMAND_EXITS[command] ?? [])];
  const codes = Object.entries(TABLE)
    .filter(([name]) => names === undefined || names.includes(name as ExitName))
    .map(([, entry]) => entry)
    .sort((a, b) => a.code - b.code)
    .map(({ code, summary }) => `${code} ${summary}`);
  return `Exit codes: ${codes.join(', ')}.`;
}
