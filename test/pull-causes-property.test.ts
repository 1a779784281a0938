import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanup, emulatorForTests, envelopeOf, monitor, writeProject } from './support/harness.js';

/**
 * The property of what pull records (issue 44 §1): a project deployed, edited at random in the
 * account, pulled, then edited at random in the code and again in the account. Every change the
 * next diff shows carries the cause of who made it (the code, the account, or both), and pull
 * never proposes to write back a field the code edited: a committed edit is never undone.
 */

const runs = Number(process.env.PULL_RUNS ?? 8);

const FIELDS = ['name', 'locations', 'tags', 'concurrency', 'muted', 'environmentVariables'] as const;
type Field = (typeof FIELDS)[number];
interface Group {
  name: string;
  locations: string[];
  tags: string[];
  concurrency: number;
  muted: boolean;
  environmentVariables: { key: string; value: string }[];
}
type Edit = Partial<Group>;

const REGIONS = ['eu-west-1', 'us-east-1', 'us-west-2', 'ap-southeast-2', 'eu-central-1'];
const GROUPS = ['alpha', 'beta'] as const;

/** A group's values; names are the group's own (a name is a check group's natural key: two alike are a conflict). */
const groupArb = (i: number): fc.Arbitrary<Group> =>
  fc.record({
    name: fc.constantFrom('Payments', 'Checkout', 'Search', 'Billing').map((name) => `${name} ${i}`),
    locations: fc.subarray(REGIONS, { minLength: 1 }),
    tags: fc.subarray(['prod', 'team-a', 'team-b', 'edge']),
    concurrency: fc.integer({ min: 1, max: 5 }),
    muted: fc.boolean(),
    environmentVariables: fc
      .subarray(['API_URL', 'MODE', 'REGION'])
      .chain((keys) =>
        fc.tuple(...keys.map((key) => fc.constantFrom('a', 'b', 'c').map((value) => ({ key, value })))),
      ),
  });
/** Some fields of a group, edited. */
const editArb = (i: number): fc.Arbitrary<Edit> =>
  groupArb(i).chain((g) =>
    fc.subarray([...FIELDS]).map((fields) => Object.fromEntries(fields.map((f) => [f, g[f]])) as Edit),
  );
const scenarioArb = fc.record({
  start: fc.tuple(groupArb(0), groupArb(1)),
  account: fc.tuple(editArb(0), editArb(1)),
  code: fc.tuple(editArb(0), editArb(1)),
  accountAgain: fc.tuple(editArb(0), editArb(1)),
});

/** The construct file of the groups, one prop per line as people write them. */
function render(groups: readonly Group[]): string {
  const body = groups.map(
    (g, i) => `new CheckGroup('${GROUPS[i]}', {
  name: ${JSON.stringify(g.name)},
  locations: ${JSON.stringify(g.locations)},
  tags: ${JSON.stringify(g.tags)},
  concurrency: ${g.concurrency},
  muted: ${g.muted},
  environmentVariables: ${JSON.stringify(g.environmentVariables)},
});
`,
  );
  return `import { CheckGroup } from '@monitor/constructs';\n\n${body.join('\n')}`;
}

/** Whether two values of a field are the same, as the service compares them (sets and keyed lists in any order). */
function same(field: Field, a: unknown, b: unknown): boolean {
  const norm = (v: unknown) => {
    if (!Array.isArray(v)) return JSON.stringify(v);
    const items = v.map((x) => (typeof x === 'string' ? x : JSON.stringify({ key: x.key, value: x.value })));
    return JSON.stringify(items.sort());
  };
  return field === 'concurrency' || field === 'muted' || field === 'name' ? a === b : norm(a) === norm(b);
}

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir });

describe('monitor pull', () => {
  it(
    'property: account edits pulled, then code and account edits: each change has its cause, and pull never undoes the code',
    async () => {
      await fc.assert(
        fc.asyncProperty(scenarioArb, async (scenario) => {
          const h = await emulatorForTests();
          const file = 'monitors/groups.monitor.ts';
          const dir = writeProject({ [file]: render(scenario.start), '.gitignore': '.monitor\n' });
          const run = (...args: string[]) => monitor(args, { cwd: dir, env: h.env });
          try {
            expect((await run('deploy', '--yes')).code).toBe(0);
            git(dir, 'init', '-q', '.');
            git(dir, 'add', '-A');
            git(dir, 'commit', '-qm', 'deployed');
            const api = h.client.managed('CheckGroup');
            const ids = new Map((await h.client.checkGroups.list()).items.map((g) => [g.name, g.id]));
            const idOf = GROUPS.map((_, i) => ids.get(scenario.start[i]?.name as string));
            const accountNow = async (i: number) => (await api.get(idOf[i] as never)) as unknown as Group;
            const editAccount = async (edits: readonly Edit[]) => {
              for (const [i, edit] of edits.entries()) {
                if (Object.keys(edit).length === 0) continue;
                const now = await accountNow(i);
                await api.update(idOf[i] as never, { name: now.name, ...edit } as never);
              }
            };

            // 1. Edits in the account, pulled into the code and committed.
            await editAccount(scenario.account);
            const pulled = await run('pull', '--yes', '--json');
            expect(pulled.code, pulled.stdout + pulled.stderr).toBe(0);
            const afterPull = await Promise.all(GROUPS.map((_, i) => accountNow(i)));
            git(dir, 'commit', '-qam', 'pulled', '--allow-empty');
            const converged = envelopeOf(await run('diff', '--json'));
            expect(converged.plan?.operations, 'pull brought every account edit back').toEqual([]);
            expect(converged.plan?.conflicts).toEqual([]);

            // 2. Edits in the code (the file as pull left it, edited field by field), and again in the account.
            const code = afterPull.map((g, i) => {
              const picked = Object.fromEntries(FIELDS.map((f) => [f, g[f]])) as unknown as Group;
              picked.environmentVariables = g.environmentVariables.map(({ key, value }) => ({ key, value }));
              return { ...picked, ...scenario.code[i] };
            });
            writeFileSync(join(dir, file), render(code));
            git(dir, 'commit', '-qam', 'code edits', '--allow-empty');
            await editAccount(scenario.accountAgain);
            const accountAfter = await Promise.all(GROUPS.map((_, i) => accountNow(i)));

            // Who changed each field since the pull.
            const causeOf = (i: number, field: Field) => {
              const before = afterPull[i]?.[field];
              const inCode = !same(field, code[i]?.[field], before);
              const inAccount = !same(field, accountAfter[i]?.[field], before);
              return inCode && inAccount ? 'both' : inCode ? 'code' : inAccount ? 'account' : 'none';
            };
            const diff = envelopeOf(await run('diff', '--json'));
            const operations = (diff.plan?.operations ?? []) as {
              logicalId: string;
              changes: { path: string; cause: string }[];
            }[];
            const told = operations.flatMap((o) => {
              const i = GROUPS.indexOf(o.logicalId as (typeof GROUPS)[number]);
              return o.changes.map((c) => {
                const field = c.path.split(/[.[]/)[0] as Field;
                return { at: `${o.logicalId} ${c.path}`, cause: c.cause, expected: causeOf(i, field) };
              });
            });
            expect(
              told.filter((t) => t.cause !== t.expected),
              JSON.stringify({ scenario, told }, null, 1),
            ).toEqual([]);

            // 3. Pull proposes only what the account alone changed: never a field the code edited.
            const dry = envelopeOf(await run('pull', '--dry-run', '--json')).result;
            const proposed = (dry.pulled as { key: string; path: string }[]).map((p) => {
              const i = GROUPS.indexOf(p.key.split(':')[1] as (typeof GROUPS)[number]);
              return { at: `${p.key} ${p.path}`, cause: causeOf(i, p.path.split(/[.[]/)[0] as Field) };
            });
            expect(
              proposed.filter((p) => p.cause !== 'account'),
              JSON.stringify({ scenario, proposed }, null, 1),
            ).toEqual([]);
          } finally {
            await h.close();
            cleanup(dir);
          }
        }),
        { numRuns: runs, endOnFailure: true },
      );
    },
    // Each run is six runs of the CLI: seconds alone, longer on a loaded 2-core machine. The bound
    // grows with PULL_RUNS, never below the suite's own, and only catches a hang.
    Math.max(180_000, runs * 60_000),
  );
});
