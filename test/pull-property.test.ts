import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KINDS, RESOURCE_KINDS, type ResourceKind } from '@monitor/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AccountSpec,
  accountArb,
  type ImportJson,
  requestBodyArb,
  secretEnv,
  seedAccount,
  withRefs,
} from './support/account-arbitraries.js';
import { execFileInTest } from './support/children.js';
import { cleanup, emulatorForTests, envelopeOf, monitor } from './support/harness.js';
import { emptyProject } from './support/projects.js';

/**
 * The property of `monitor pull`: any account imported into a project, then edited in the account
 * (random fields of random resources of every kind, as the UI could), then pulled: the next diff
 * shows nothing but what pull said it left (secrets, and what the code computes), the code
 * type-checks, and every construct pull did not edit is byte for byte what it was.
 */

const TSC = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
const runs = Number(process.env.PULL_RUNS ?? 3);

type Body = Record<string, unknown>;
/** For each kind, for each resource of the spec, the body of an edit in the account, or none. */
type Drift = Record<ResourceKind, (Body | null)[]>;

const scenarioArb = accountArb.chain((spec) => {
  const counts = Object.fromEntries(RESOURCE_KINDS.map((k) => [k, spec[k].length]));
  const drift = Object.fromEntries(
    RESOURCE_KINDS.map((kind) => [
      kind,
      fc.tuple(...spec[kind].map(() => fc.option(requestBodyArb(KINDS[kind], counts), { nil: null }))),
    ]),
  ) as unknown as Record<ResourceKind, fc.Arbitrary<(Body | null)[]>>;
  return fc.record(drift).map((d) => ({ spec, drift: d as Drift }));
});

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir });

const isObject = (v: unknown): v is Body => v !== null && typeof v === 'object' && !Array.isArray(v);
/** `edit` over `base`: objects field by field, anything else replaced. */
function over(base: unknown, edit: unknown): unknown {
  if (!isObject(base) || !isObject(edit)) return edit;
  const out: Body = { ...base };
  for (const [k, v] of Object.entries(edit)) out[k] = over(base[k], v);
  return out;
}

/** The statements of a generated module (import writes them a blank line apart). */
const statements = (text: string) => text.split('\n\n');

describe('monitor pull', () => {
  it(
    'property: random edits in the account of imported resources, pulled, diff as nothing but what pull left; the code type-checks; the rest is byte-identical',
    async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(scenarioArb, async ({ spec, drift }: { spec: AccountSpec; drift: Drift }) => {
          run++;
          const h = await emulatorForTests();
          const dir = emptyProject(`pulled-${run}`, { '.gitignore': '.monitor\n' });
          try {
            const seeded = await seedAccount(
              spec,
              (kind, body) => h.client.managed(kind).create(body),
              `p${run}${Date.now().toString(36)}`,
            );
            // The secrets the code will read, with the values the account was made with.
            const dry = await monitor(['import', '--dry-run', '--json'], { cwd: dir, env: h.env });
            const env = { ...h.env, ...secretEnv(envelopeOf(dry).result as ImportJson, seeded) };
            const imported = await monitor(['import', '--json'], { cwd: dir, env });
            expect(imported.code, imported.stdout).toBe(0);
            const importJson = envelopeOf(imported).result as ImportJson;
            const files = importJson.files;
            git(dir, 'init', '-q', '.');
            git(dir, 'add', '-A');
            git(dir, 'commit', '-qm', 'imported');
            const before = new Map(files.map((f) => [f, readFileSync(join(dir, f), 'utf8')]));

            // Edits in the account: a new body for each chosen resource, its keys and type kept.
            for (const kind of RESOURCE_KINDS) {
              const def = KINDS[kind];
              const kept = new Set([...def.uniqueKeys, ...(def.naturalKey?.fields ?? []), 'type']);
              for (const [i, edit] of drift[kind].entries()) {
                const made = seeded[kind][i];
                // A channel keeps its type: another type's config is another channel.
                if (edit === null || made === undefined || ('type' in edit && edit.type !== made.body.type))
                  continue;
                const body = withRefs(edit, (ref) => seeded[ref.kind][ref.$index]?.live.id) as Body;
                for (const field of kept) if (field in made.body) body[field] = made.body[field];
                // An update changes what it names (a partial PUT): what it leaves must still go with it.
                if (!def.createSchema.safeParse({ ...made.body, ...body }).success) continue;
                // As a form in the UI sends an object: whole, the fields not edited as they are.
                const now = (await h.client.managed(kind).get(made.live.id as never)) as Body;
                for (const [field, value] of Object.entries(body)) body[field] = over(now[field], value);
                await h.client.managed(kind).update(made.live.id as never, body as never);
              }
            }

            const pulled = await monitor(['pull', '--yes', '--json'], { cwd: dir, env });
            expect(pulled.code, pulled.stdout + pulled.stderr).toBe(0);
            const result = envelopeOf(pulled).result;
            const left = new Set<string>([
              ...result.notPulled.map((n: { key: string }) => n.key),
              ...result.manual.map((m: { key: string }) => m.key),
            ]);

            const diffRun = await monitor(['diff', '--json'], { cwd: dir, env });
            const diff = JSON.parse(diffRun.stdout) as { error: unknown; plan: { operations: unknown[] } };
            expect(
              diff.error,
              `${diffRun.stdout}\n${pulled.stdout}\n${files.map((f) => readFileSync(join(dir, f), 'utf8')).join('\n')}`,
            ).toBeNull();
            const changed = (
              diff.plan.operations as { kind: string; logicalId: string; action: string }[]
            ).map((o) => `${o.kind}:${o.logicalId}`);
            expect(
              changed.filter((key) => !left.has(key)),
              `resources pull said it brought back, still changed:\n${JSON.stringify(diff.plan.operations, null, 1)}\n${JSON.stringify(result, null, 1)}`,
            ).toEqual([]);

            const tsc = await execFileInTest(process.execPath, [TSC, '-p', dir], { cwd: dir }).catch(
              (e: { stdout: string }) => ({ stdout: e.stdout, failed: true }),
            );
            expect('failed' in tsc ? tsc.stdout : '', 'the pulled code type-checks').toBe('');

            const edited = new Set(
              result.pulled.map((p: { key: string }) => p.key.slice(p.key.indexOf(':') + 1)),
            );
            for (const [file, old] of before) {
              const now = readFileSync(join(dir, file), 'utf8');
              const [a, b] = [statements(old), statements(now)];
              expect(b.length, file).toBe(a.length);
              for (const [i, chunk] of a.entries()) {
                if (chunk === b[i]) continue;
                const id = /new \w+\('([^']+)'/.exec(chunk)?.[1];
                expect(
                  id !== undefined && edited.has(id),
                  `${file}: a statement pull did not edit changed:\n${chunk}`,
                ).toBe(true);
              }
            }
          } finally {
            await h.close();
            cleanup(dir);
          }
        }),
        { numRuns: runs, endOnFailure: true },
      );
    },
    // Each run is a deploy, a pull, a diff and a tsc: seconds alone, up to a minute on a loaded
    // 2-core machine. The bound grows with PULL_RUNS, never below the suite's own, and only catches a hang.
    180_000 + runs * 60_000,
  );
});
