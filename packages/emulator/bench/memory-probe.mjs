// Preloaded into the measured emulator (`node --expose-gc --import memory-probe.mjs bin.js`): on
// SIGUSR2 it collects garbage and writes one line `memory {"rss":…,"heapUsed":…}` on stderr.
process.on('SIGUSR2', () => {
  globalThis.gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  process.stderr.write(`memory ${JSON.stringify({ rss, heapUsed })}\n`);
});
