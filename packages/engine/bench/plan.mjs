// The planner alone (pure, no HTTP): N check groups adopted by natural key (no state), and the
// same N again with state (no changes). Prints wall time of `plan()` per case.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

// The planner is not part of the package's public surface, and the built package is bundled: the
// bench bundles the planner from the sources (other packages stay imports of their builds).
const planner = fileURLToPath(new URL('../node_modules/.cache/monitor-bench/planner.mjs', import.meta.url));
mkdirSync(fileURLToPath(new URL('../node_modules/.cache/monitor-bench/', import.meta.url)), {
  recursive: true,
});
await build({
  stdin: {
    contents:
      "export { appliedHash, plan } from './src/plan/plan.ts';\nexport { emptyState } from './src/state/state.ts';\nexport { planRouting } from './src/flows/routes.ts';",
    resolveDir: fileURLToPath(new URL('..', import.meta.url)),
    loader: 'ts',
  },
  outfile: planner,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
const { appliedHash, plan, emptyState, planRouting } = await import(planner);

const kinds = [
  'CheckGroup',
  'Dashboard',
  'StatusPage',
  'StatusPageService',
  'MaintenanceWindow',
  'AlertChannel',
];

function project(n) {
  const desired = [];
  const live = Object.fromEntries(kinds.map((k) => [k, []]));
  for (let i = 0; i < n; i++) {
    const payload = { name: `Group ${i}`, tags: ['bench', `t${i % 7}`], locations: ['eu-west-1'] };
    desired.push({
      kind: 'CheckGroup',
      logicalId: `g${i}`,
      construct: 'CheckGroup',
      payload,
      dependsOn: [],
      options: { aliases: [], protect: false, adopt: true, ignoreChanges: [] },
    });
    live.CheckGroup.push({
      id: i + 1,
      ...payload,
      tags: [...payload.tags].reverse(),
      created_at: '2026-11-01',
    });
  }
  return { desired, live };
}

function time(label, fn) {
  const runs = [];
  let result;
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    result = fn();
    runs.push(performance.now() - t);
  }
  runs.sort((a, b) => a - b);
  console.log(`${label}: ${runs[1].toFixed(0)} ms (median of 3); ${JSON.stringify(result.summary)}`);
}

const now = { now: new Date('2026-11-21T00:00:00Z') };
for (const n of [1000, 5000]) {
  const { desired, live } = project(n);
  time(`N=${String(n).padStart(5)} plan, adopt all (no state)`, () =>
    plan(desired, live, emptyState('bench'), now),
  );
  const state = emptyState('bench');
  for (const d of desired) {
    state.resources[`CheckGroup:${d.logicalId}`] = {
      kind: 'CheckGroup',
      logicalId: d.logicalId,
      physicalId: Number(d.logicalId.slice(1)) + 1,
      appliedHash: appliedHash('CheckGroup', d.payload, state.salt),
      secretHashes: {},
      protect: false,
    };
  }
  time(`N=${String(n).padStart(5)} plan, no changes (with state)`, () => plan(desired, live, state, now));
  // Who gets paged before and after, beside the plan (diff and deploy add it): every group muted.
  const muted = desired.map((d) => ({ ...d, payload: { ...d.payload, muted: true } }));
  const reroutes = plan(muted, live, state, now);
  time(`N=${String(n).padStart(5)} routing of a plan that mutes every group`, () => {
    const routing = planRouting(reroutes, { live, state });
    return { summary: { rerouted: routing.changes.length } };
  });
}
