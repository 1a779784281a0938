// Preloaded into the measured process: when it exits, writes its peak resident memory (KiB) to
// MONITOR_BENCH_RSS_FILE, and its peak memory and CPU time as JSON to MONITOR_BENCH_USAGE_FILE.
import { writeFileSync } from 'node:fs';

process.on('exit', () => {
  const usage = process.resourceUsage();
  if (process.env.MONITOR_BENCH_RSS_FILE)
    writeFileSync(process.env.MONITOR_BENCH_RSS_FILE, String(usage.maxRSS));
  if (process.env.MONITOR_BENCH_USAGE_FILE) {
    const cpuMs = (usage.userCPUTime + usage.systemCPUTime) / 1000;
    writeFileSync(process.env.MONITOR_BENCH_USAGE_FILE, JSON.stringify({ maxRssKb: usage.maxRSS, cpuMs }));
  }
});
