import type { UnseenSecrets } from '@monitor/engine';

/** What pull cannot see, said once: secrets the service masks, and without the state secret whether any secret changed. */
export function unseenLines(unseen: UnseenSecrets, command: 'pull' | 'diff'): string[] {
  const lines: string[] = [];
  if (unseen.masked > 0)
    lines.push(
      `Cannot be seen: the service masks secret environment variables (${unseen.masked} in the resources this project owns), so one changed in the UI never shows as drift${command === 'pull' ? ' and is never pulled' : ''}. Change such a secret where the code reads it.`,
    );
  if (command === 'pull' && !unseen.keyed && unseen.secrets > 0)
    lines.push(
      'Without MONITOR_STATE_SECRET, pull cannot tell whether secrets drifted: state keeps only keyed hashes of them. Set it as deploy runs with it (see docs/deploy.md).',
    );
  return lines;
}
