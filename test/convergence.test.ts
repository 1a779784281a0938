import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanup, emulatorForTests, monitor, writeFiles, writeProject } from './support/harness.js';

/**
 * Property: for any valid project, deploy then diff is empty; one random edit then shows exactly
 * that edit; deploy then diff is empty again. The project is a plain model turned into source.
 */

interface Channel {
  type: 'email' | 'slack' | 'webhook';
  target: string;
  sendRecovery?: boolean;
  headers?: { key: string; value: string }[];
}
interface Group {
  tags?: string[];
  locations?: string[];
  muted?: boolean;
  concurrency?: number;
  env: { key: string; value: string; secret?: boolean }[];
  channels: number[];
  apiUrl?: string;
}
interface Page {
  description?: string | null;
  theme?: 'LIGHT' | 'DARK' | 'AUTO';
  cards: { name: string; services: number[] }[];
}
interface Dash {
  tags?: string[];
  refreshRate?: 60 | 300 | 600;
  description?: string;
}
interface Window {
  hours: number;
  tags: string[];
  groups: number[];
  silenceAllAlerts?: boolean;
  pages: number[];
  services: number[];
}
interface Model {
  channels: Channel[];
  groups: Group[];
  services: number;
  pages: Page[];
  dashboards: Dash[];
  windows: Window[];
}

const word = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'prod', 'eu', 'api', 'web');
const text = fc.array(fc.constantFrom('status', 'of', 'the', 'Acme', 'APIs', 'and', 'apps', '\n'), {
  minLength: 1,
  maxLength: 30,
});
const indices = (n: number) => fc.uniqueArray(fc.nat({ max: Math.max(0, n - 1) }), { maxLength: n });

const channelArb: fc.Arbitrary<Channel> = fc.record(
  {
    type: fc.constantFrom('email', 'slack', 'webhook'),
    target: word,
    sendRecovery: fc.boolean(),
    headers: fc.uniqueArray(fc.record({ key: word, value: word }), { selector: (h) => h.key, maxLength: 3 }),
  },
  { requiredKeys: ['type', 'target'] },
);

const modelArb: fc.Arbitrary<Model> = fc
  .record({
    channels: fc.array(channelArb, { maxLength: 3 }),
    services: fc.nat({ max: 3 }),
    groupCount: fc.nat({ max: 3 }),
    pageCount: fc.nat({ max: 2 }),
    dashboards: fc.array(
      fc.record(
        {
          tags: fc.uniqueArray(word, { maxLength: 3 }),
          refreshRate: fc.constantFrom(60 as const, 300 as const, 600 as const),
          description: text.map((w) => w.join(' ')),
        },
        { requiredKeys: [] },
      ),
      { maxLength: 2 },
    ),
    windowCount: fc.nat({ max: 2 }),
  })
  .chain((base) =>
    fc.record({
      channels: fc.constant(base.channels),
      services: fc.constant(base.services),
      dashboards: fc.constant(base.dashboards),
      groups: fc.array(
        fc.record(
          {
            tags: fc.uniqueArray(word, { maxLength: 4 }),
            locations: fc.uniqueArray(
              fc.constantFrom('eu-west-1', 'us-east-1', 'ap-south-1', 'eu-central-1'),
              {
                minLength: 1,
                maxLength: 3,
              },
            ),
            muted: fc.boolean(),
            concurrency: fc.integer({ min: 1, max: 10 }),
            env: fc.uniqueArray(
              fc.record({
                key: fc.constantFrom('TOKEN', 'REGION', 'USER', 'PASS'),
                value: word,
                secret: fc.boolean(),
              }),
              { selector: (e) => e.key, maxLength: 3 },
            ),
            channels: indices(base.channels.length),
            apiUrl: word.map((w) => `https://${w}.acme.example`),
          },
          { requiredKeys: ['env', 'channels'] },
        ),
        { minLength: base.groupCount, maxLength: base.groupCount },
      ),
      pages: fc.array(
        fc.record(
          {
            description: fc.option(
              text.map((w) => w.join(' ')),
              { nil: null },
            ),
            theme: fc.constantFrom('LIGHT' as const, 'DARK' as const, 'AUTO' as const),
            cards: fc.uniqueArray(fc.record({ name: word, services: indices(base.services) }), {
              selector: (c) => c.name,
              maxLength: 3,
            }),
          },
          { requiredKeys: ['cards'] },
        ),
        { minLength: base.pageCount, maxLength: base.pageCount },
      ),
      windows: fc.array(
        fc.record(
          {
            hours: fc.integer({ min: 1, max: 48 }),
            tags: fc.uniqueArray(word, { maxLength: 2 }),
            groups: indices(base.groupCount),
            silenceAllAlerts: fc.boolean(),
            pages: indices(base.pageCount),
            services: indices(base.services),
          },
          { requiredKeys: ['hours', 'tags', 'groups', 'pages', 'services'] },
        ),
        { minLength: base.windowCount, maxLength: base.windowCount },
      ),
    }),
  );

const REF = /"@@ref:([a-z]+\d+)@@"/g;
const ref = (name: string) => `@@ref:${name}@@`;
const props = (value: Record<string, unknown>) => JSON.stringify(value).replace(REF, '$1');
const drop = <T extends object>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

function source(m: Model): string {
  const out = [
    "import { CheckGroup, Dashboard, EmailAlertChannel, MaintenanceWindow, SlackAlertChannel, StatusPage, StatusPageService, WebhookAlertChannel } from '@monitor/constructs';",
  ];
  m.channels.forEach((c, i) => {
    const flags = drop({ sendRecovery: c.sendRecovery });
    if (c.type === 'email') {
      out.push(
        `const ch${i} = new EmailAlertChannel('ch${i}', ${props({ address: `${c.target}${i}@acme.example`, ...flags })});`,
      );
    } else if (c.type === 'slack') {
      out.push(
        `const ch${i} = new SlackAlertChannel('ch${i}', ${props({ url: `https://hooks.slack.example/${c.target}${i}`, channel: `#${c.target}`, ...flags })});`,
      );
    } else {
      out.push(
        `const ch${i} = new WebhookAlertChannel('ch${i}', ${props(drop({ name: `Hook ${i}`, url: `https://hooks.acme.example/${c.target}`, method: 'POST', headers: c.headers, ...flags }))});`,
      );
    }
  });
  for (let i = 0; i < m.services; i++)
    out.push(`const svc${i} = new StatusPageService('svc${i}', { name: 'Service ${i}' });`);
  m.groups.forEach((g, i) => {
    out.push(
      `const grp${i} = new CheckGroup('grp${i}', ${props(
        drop({
          name: `Group ${i}`,
          tags: g.tags,
          locations: g.locations,
          muted: g.muted,
          concurrency: g.concurrency,
          environmentVariables: g.env.length === 0 ? undefined : g.env,
          alertChannels: g.channels.length === 0 ? undefined : g.channels.map((c) => ref(`ch${c}`)),
          apiCheckDefaults: g.apiUrl === undefined ? undefined : { url: g.apiUrl },
        }),
      )});`,
    );
  });
  m.pages.forEach((p, i) => {
    out.push(
      `const pg${i} = new StatusPage('pg${i}', ${props(
        drop({
          name: `Page ${i}`,
          url: `acme-prop-page-${i}`,
          description: p.description,
          defaultTheme: p.theme,
          cards: p.cards.map((c) => ({ name: c.name, services: c.services.map((s) => ref(`svc${s}`)) })),
        }),
      )});`,
    );
  });
  m.dashboards.forEach((d, i) => {
    out.push(
      `new Dashboard('dash${i}', ${props(drop({ header: `Dashboard ${i}`, customUrl: `acme-prop-dash-${i}`, tags: d.tags, refreshRate: d.refreshRate, description: d.description }))});`,
    );
  });
  m.windows.forEach((w, i) => {
    const start = Date.UTC(2027, 0, 1 + i);
    out.push(
      `new MaintenanceWindow('mw${i}', ${props(
        drop({
          name: `Window ${i}`,
          startsAt: new Date(start).toISOString(),
          endsAt: new Date(start + w.hours * 3_600_000).toISOString(),
          tags: [...w.tags, ...w.groups.map((g) => ref(`grp${g}`))],
          silenceAllAlerts: w.silenceAllAlerts,
          statusPageVisibility: {
            enabled: w.pages.length > 0,
            statusPages: w.pages.map((p) => ref(`pg${p}`)),
            services: w.services.map((s) => ref(`svc${s}`)),
          },
        }),
      )});`,
    );
  });
  return `${out.join('\n')}\n`;
}

/** What a diff must show after an edit: nothing, or exactly one operation on one resource. */
type Expectation =
  | { changes: false }
  | { changes: true; action: 'update' | 'delete'; kind: string; logicalId: string; paths: string[] };

type Edit = (m: Model) => Expectation | undefined;

const EDITS: Record<string, Edit> = {
  toggleMuted: (m) => {
    const g = m.groups[0];
    if (g === undefined) return undefined;
    g.muted = !(g.muted ?? false);
    return { changes: true, action: 'update', kind: 'CheckGroup', logicalId: 'grp0', paths: ['muted'] };
  },
  removeTags: (m) => {
    const g = m.groups.at(-1);
    if (g === undefined) return undefined;
    const had = (g.tags ?? []).length > 0;
    g.tags = undefined;
    const id = `grp${m.groups.length - 1}`;
    return had
      ? { changes: true, action: 'update', kind: 'CheckGroup', logicalId: id, paths: ['tags'] }
      : { changes: false };
  },
  reorderLocations: (m) => {
    const g = m.groups[0];
    if (g?.locations === undefined || g.locations.length < 2) return undefined;
    g.locations = [...g.locations].reverse();
    return { changes: false };
  },
  rotateSecret: (m) => {
    const g = m.groups[0];
    if (g === undefined) return undefined;
    const secret = g.env.find((e) => e.secret === true);
    if (secret !== undefined) {
      secret.value = `${secret.value}-rotated`;
      return {
        changes: true,
        action: 'update',
        kind: 'CheckGroup',
        logicalId: 'grp0',
        paths: [`environmentVariables[${secret.key}].value`],
      };
    }
    g.env.push({ key: 'NEW_SECRET', value: 'fresh', secret: true });
    return {
      changes: true,
      action: 'update',
      kind: 'CheckGroup',
      logicalId: 'grp0',
      paths: ['environmentVariables[NEW_SECRET]'],
    };
  },
  dropSubscriptions: (m) => {
    const i = m.groups.findIndex((g) => g.channels.length > 0);
    const g = m.groups[i];
    if (g === undefined) return undefined;
    g.channels = [];
    return {
      changes: true,
      action: 'update',
      kind: 'CheckGroup',
      logicalId: `grp${i}`,
      paths: ['alertChannelSubscriptions'],
    };
  },
  pageDescription: (m) => {
    const p = m.pages[0];
    if (p === undefined) return undefined;
    p.description = `${p.description ?? ''}\nOne more line.`;
    return { changes: true, action: 'update', kind: 'StatusPage', logicalId: 'pg0', paths: ['description'] };
  },
  reverseCardServices: (m) => {
    const card = m.pages.flatMap((p) => p.cards).find((c) => c.services.length > 1);
    if (card === undefined) return undefined;
    card.services.reverse();
    return { changes: false };
  },
  dashboardRefresh: (m) => {
    const d = m.dashboards[0];
    if (d === undefined) return undefined;
    d.refreshRate = d.refreshRate === 600 ? 60 : 600;
    return { changes: true, action: 'update', kind: 'Dashboard', logicalId: 'dash0', paths: ['refreshRate'] };
  },
  channelRecovery: (m) => {
    const c = m.channels[0];
    if (c === undefined) return undefined;
    c.sendRecovery = !(c.sendRecovery ?? true);
    return {
      changes: true,
      action: 'update',
      kind: 'AlertChannel',
      logicalId: 'ch0',
      paths: ['sendRecovery'],
    };
  },
  windowLonger: (m) => {
    const w = m.windows[0];
    if (w === undefined) return undefined;
    w.hours += 1;
    return {
      changes: true,
      action: 'update',
      kind: 'MaintenanceWindow',
      logicalId: 'mw0',
      paths: ['endsAt'],
    };
  },
  removeDashboard: (m) => {
    if (m.dashboards.length === 0) return undefined;
    m.dashboards.pop();
    return {
      changes: true,
      action: 'delete',
      kind: 'Dashboard',
      logicalId: `dash${m.dashboards.length}`,
      paths: [],
    };
  },
};

interface Op {
  action: string;
  kind: string;
  logicalId: string;
  changes?: { path: string }[];
}

const RUNS = Number(process.env.CONVERGENCE_RUNS ?? 8);
// A run's six CLI runs take seconds alone and up to a minute on a loaded 2-core machine: the bound
// grows with the runs, is never below the suite's own (vitest.config.ts), and only catches a hang.
const TIMEOUT = 180_000 + RUNS * 60_000;

describe('convergence (property-based)', () => {
  it('deploy → no changes; a random edit → exactly that edit; deploy → no changes', {
    timeout: TIMEOUT,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(modelArb, fc.constantFrom(...Object.keys(EDITS)), async (model, editName) => {
        const h = await emulatorForTests();
        const dir = writeProject({ 'p.monitor.ts': source(model) });
        const run = (...args: string[]) => monitor(args, { cwd: dir, env: h.env });
        try {
          const first = await run('deploy', '--yes');
          expect(first.code, first.stdout + first.stderr).toBe(0);
          const clean = await run('diff', '--detailed-exitcode', '--json');
          expect(JSON.parse(clean.stdout).plan.operations, clean.stdout).toEqual([]);
          expect(clean.code).toBe(0);

          const edited = structuredClone(model);
          const expectation = (EDITS[editName] as Edit)(edited) ?? { changes: false };
          writeFiles(dir, { 'p.monitor.ts': source(edited) });
          const diff = await run('diff', '--json', '--detailed-exitcode');
          const plan = JSON.parse(diff.stdout).plan as { changes: boolean; operations: Op[] };
          if (!expectation.changes) {
            expect(plan.operations).toEqual([]);
            expect(diff.code).toBe(0);
            return;
          }
          expect(diff.code).toBe(2);
          expect(plan.operations.map((o) => [o.action, o.kind, o.logicalId])).toEqual([
            [expectation.action, expectation.kind, expectation.logicalId],
          ]);
          const paths = (plan.operations[0]?.changes ?? []).map((c) => c.path);
          if (expectation.action === 'update') {
            expect(paths.length).toBeGreaterThan(0);
            for (const path of paths) expect(expectation.paths.some((p) => path.startsWith(p))).toBe(true);
          }
          const second = await run('deploy', '--yes', '--allow-deletes');
          expect(second.code, second.stdout + second.stderr).toBe(0);
          expect((await run('diff', '--detailed-exitcode')).code).toBe(0);
        } finally {
          await h.close();
          cleanup(dir);
        }
      }),
      {
        // Each run is six CLI runs against a fresh emulator; CONVERGENCE_RUNS=100 for a long search.
        numRuns: RUNS,
        seed: Number(process.env.CONVERGENCE_SEED ?? 20261121),
        endOnFailure: true,
      },
    );
  });
});
