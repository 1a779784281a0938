/**
 * A `process.exit` that project code called after it had loaded (from a timer or a callback): the
 * engine refused it and left it here (`REFUSED_EXIT` in @monitor/engine's exit guard), for the CLI
 * to report with the file and line. Read without loading the engine.
 */
const REFUSED_EXIT = Symbol.for('monitor.refusedExit');

export interface RefusedExit {
  message: string;
  hint: string;
}

/** The refused exit not reported yet, if any; it is reported once. */
export function takeRefusedExit(): RefusedExit | undefined {
  const holder = globalThis as Record<symbol, unknown>;
  const refused = holder[REFUSED_EXIT] as RefusedExit | undefined;
  if (refused === undefined || (refused as { reported?: boolean }).reported === true) return undefined;
  // Marked, not removed: a second exit of the project is the same story, not news.
  (refused as { reported?: boolean }).reported = true;
  return refused;
}
