import { escapeTerminal } from '@monitor/engine/escape';

/** The line a run prints when it removed a state lock that a run which is gone left behind. */
export function staleLockNotice(removed: string): string {
  return `Removed ${escapeTerminal(removed)}: it was left behind, and no run holds it.\n`;
}
