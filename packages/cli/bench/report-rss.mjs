// Preloaded into the measured process: writes its peak resident memory (KiB) when it exits.
import { writeFileSync } from 'node:fs';

process.on('exit', () => {
  if (process.env.MONITOR_BENCH_RSS_FILE)
    writeFileSync(process.env.MONITOR_BENCH_RSS_FILE, String(process.resourceUsage().maxRSS));
});
