/** Exit codes of every command (design.md). */
export const EXIT = {
  ok: 0,
  error: 1,
  /** `diff --detailed-exitcode` found changes */
  changes: 2,
  /** invalid project: diagnostics were printed */
  invalid: 3,
  /** a saved plan is stale */
  stalePlan: 4,
  /** refused: confirmation or --allow-deletes needed in a non-interactive run */
  refused: 5,
  /** another deploy holds the lock */
  locked: 6,
  /** a wait ran out of time: trigger --wait, sessions wait, rca generate --wait, agent health --wait-ready */
  timeout: 7,
  /** Ctrl-C while waiting; what was started goes on, and the message says how to resume */
  interrupted: 130,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
