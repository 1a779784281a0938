import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanup, emulatorForTests, monitor, writeProject } from './support/harness.js';

/**
 * Property: for any project (names repeated in every kind where the service lets them repeat), a
 * deploy under faults that is SIGKILLed at any point never leaves the project stuck: re-runs under
 * the same faults converge, and then there is exactly one resource per construct and a clean diff.
 */

interface Model {
  /** Name pools are small on purpose: names repeat, within a kind and across cards. */
  groups: number[];
  channels: number[];
  windows: number[];
  /** Each page's cards, each card's services (their name indices). */
  pages: number[][][];
  dashboards: number;
}

const name = fc.nat({ max: 1 });
const modelArb: fc.Arbitrary<Model> = fc.record({
  groups: fc.array(name, { minLength: 1, maxLength: 4 }),
  channels: fc.array(name, { maxLength: 3 }),
  windows: fc.array(name, { maxLength: 3 }),
  pages: fc.array(fc.array(fc.array(name, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 2 }), {
    minLength: 1,
    maxLength: 2,
  }),
  dashboards: fc.nat({ max: 2 }),
});

function source(m: Model): string {
  const out = [
    "import { CheckGroup, Dashboard, EmailAlertChannel, MaintenanceWindow, StatusPage, StatusPageService } from '@monitor/constructs';",
  ];
  // Two channels of one address are two identical channels: only a pending create tells them apart.
  m.channels.forEach((n, i) => {
    out.push(`const ch${i} = new EmailAlertChannel('ch${i}', { address: 'ops${n}@acme.example' });`);
  });
  m.groups.forEach((n, i) => {
    const channels = m.channels.length === 0 ? '' : `, alertChannels: [ch${i % m.channels.length}]`;
    out.push(`new CheckGroup('grp${i}', { name: 'Group ${n}'${channels} });`);
  });
  let service = 0;
  m.pages.forEach((cards, p) => {
    const cardSources = cards.map((services, c) => {
      const ids = services.map((n) => {
        const id = `svc${service++}`;
        out.push(`const ${id} = new StatusPageService('${id}', { name: 'API ${n}' });`);
        return id;
      });
      return `{ name: 'Card ${c}', services: [${ids.join(', ')}] }`;
    });
    out.push(
      `new StatusPage('pg${p}', { name: 'Status', url: 'acme-crash-${p}', cards: [${cardSources.join(', ')}] });`,
    );
  });
  for (let i = 0; i < m.dashboards; i++)
    out.push(`new Dashboard('dash${i}', { header: 'Dashboard', customUrl: 'acme-crash-dash-${i}' });`);
  m.windows.forEach((n, i) => {
    const start = Date.UTC(2027, 0, 1 + i);
    out.push(
      `new MaintenanceWindow('mw${i}', { name: 'Window ${n}', tags: ['prod'], startsAt: '${new Date(start).toISOString()}', endsAt: '${new Date(start + 3_600_000).toISOString()}' });`,
    );
  });
  return `${out.join('\n')}\n`;
}

const FAULTS = {
  rateLimitRate: 0.05,
  serverErrorRate: 0.1,
  dropAfterProcessing: [{ method: 'POST', every: 4 }],
};

const RUNS = Number(process.env.CRASH_RUNS ?? 6);
// A run (a killed deploy, up to eight re-runs and a diff) takes seconds alone and up to a minute on
// a loaded 2-core machine: the bound grows with the runs, is never below the suite's own
// (vitest.config.ts), and only catches a hang.
const TIMEOUT = 180_000 + RUNS * 60_000;

describe('crash convergence (property-based)', () => {
  it('a deploy SIGKILLed at a random write under faults: re-runs converge, one resource per construct, a clean diff', {
    timeout: TIMEOUT,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(modelArb, fc.nat({ max: 12 }), fc.nat({ max: 1000 }), async (model, killAt, seed) => {
        const h = await emulatorForTests({ faults: { seed, ...FAULTS } });
        const dir = writeProject({ 'p.monitor.ts': source(model) });
        const env = { ...h.env };
        const run = (...args: string[]) => monitor(args, { cwd: dir, env });
        try {
          // Killed once `killAt` writes reached the service (or it finished first).
          await monitor(['deploy', '--yes', '--parallelism', '4'], {
            cwd: dir,
            env,
            onSpawn: (child) => {
              void (async () => {
                // Until it exits, by itself or by a signal (one that stopped it when the test ended).
                const running = () => child.exitCode === null && child.signalCode === null;
                while (running() && h.writes().length < killAt) await sleep(2);
                if (running()) child.kill('SIGKILL');
              })();
            },
          });
          let last = -1;
          for (let i = 0; i < 8 && last !== 0; i++) {
            const r = await run('deploy', '--yes', '--allow-deletes');
            last = r.code ?? -1;
            // Never stuck on a conflict of the project with itself.
            expect(r.code, r.stdout + r.stderr).not.toBe(3);
          }
          expect(last).toBe(0);
          h.emulator.app.faults.configure({});
          const clean = await run('diff', '--detailed-exitcode');
          expect(clean.code, clean.stdout).toBe(0);
          const count = async (list: () => AsyncIterable<unknown>) => {
            let n = 0;
            for await (const _ of list()) n++;
            return n;
          };
          expect(await count(() => h.client.checkGroups.all())).toBe(model.groups.length);
          expect(await count(() => h.client.alertChannels.all())).toBe(model.channels.length);
          expect(await count(() => h.client.maintenanceWindows.all())).toBe(model.windows.length);
          expect(await count(() => h.client.statusPages.all())).toBe(model.pages.length);
          expect(await count(() => h.client.statusPageServices.all())).toBe(model.pages.flat(2).length);
          expect(await count(() => h.client.dashboards.all())).toBe(model.dashboards);
        } finally {
          await h.close();
          cleanup(dir);
        }
      }),
      {
        // Each run is a killed deploy, its re-runs and a diff; CRASH_RUNS=100 for a long search.
        numRuns: RUNS,
        seed: Number(process.env.CRASH_SEED ?? 20261124),
        endOnFailure: true,
      },
    );
  });
});
