import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountArb,
  type ImportJson,
  SECRET_MARKER,
  secretEnv,
  seedAccount,
  valueAt,
} from './support/account-arbitraries.js';
import { execFileInTest } from './support/children.js';
import { cleanup, emulatorForTests, envelopeOf, monitor, writeProject } from './support/harness.js';
import { emptyProject } from './support/projects.js';

const TSC = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
const BASIC = fileURLToPath(new URL('../examples/basic/', import.meta.url));
const runs = Number(process.env.IMPORT_RUNS ?? 3);

/** Every file under `dir` (but .monitor/) with its text, to prove a failed run changed nothing. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      if (name === '.monitor') continue;
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else out[path.slice(dir.length)] = readFileSync(path, 'utf8');
    }
  };
  walk(dir);
  return out;
}

/** Whether the project has a state file (a lock alone leaves its directory). */
const hasState = (dir: string) =>
  existsSync(join(dir, '.monitor/state')) &&
  readdirSync(join(dir, '.monitor/state')).some((f) => f.endsWith('.json'));

describe('monitor import', () => {
  it(
    'property: any account, imported into an empty project, diffs as No changes, and the code type-checks',
    async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(accountArb, async (spec) => {
          run++;
          const harness = await emulatorForTests();
          const dir = emptyProject(`imported-${run}`);
          try {
            const seeded = await seedAccount(
              spec,
              (kind, body) => harness.client.managed(kind).create(body),
              `r${run}${Date.now().toString(36)}`,
            );
            const env = harness.env;
            const dry = await monitor(['import', '--dry-run', '--json'], { cwd: dir, env });
            expect(dry.code, dry.stderr).toBe(0);
            expect(existsSync(join(dir, 'monitors')), 'a dry run writes nothing').toBe(false);
            const planned = envelopeOf(dry).result as ImportJson;
            const count = Object.values(seeded).flat().length;
            // Every resource the test made, and the emulator's own seed data.
            expect(planned.imported.length).toBeGreaterThanOrEqual(count);

            const secrets = secretEnv(planned, seeded);
            const imported = await monitor(['import', '--json'], { cwd: dir, env: { ...env, ...secrets } });
            expect(imported.code, imported.stdout).toBe(0);
            const written = envelopeOf(imported).result as ImportJson;
            for (const file of written.files) {
              const code = readFileSync(join(dir, file), 'utf8');
              expect(code, `${file} holds a secret`).not.toContain(SECRET_MARKER);
              // Controls and bidi overrides from the account are escapes in the code, never raw.
              expect(code.replace(/\n/g, ''), file).not.toMatch(/[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u);
            }
            expect(dry.stdout + imported.stdout + imported.stderr).not.toContain(SECRET_MARKER);

            const diff = await monitor(['diff', '--detailed-exitcode'], {
              cwd: dir,
              env: { ...env, ...secrets },
            });
            expect(diff.stdout, diff.stderr).toContain('No changes.');
            expect(diff.code).toBe(0);

            const tsc = await execFileInTest(process.execPath, [TSC, '-p', dir], { cwd: dir }).catch(
              (e: { stdout: string }) => ({ stdout: e.stdout, failed: true }),
            );
            expect('failed' in tsc ? tsc.stdout : '', 'the generated code type-checks').toBe('');
          } finally {
            await harness.close();
            cleanup(dir);
          }
        }),
        // A failing account is printed as it is: shrinking it re-runs the CLI for minutes.
        { numRuns: runs, endOnFailure: true },
      );
    },
    // Each run is four CLI runs and a tsc: seconds alone, up to a minute on a loaded 2-core machine.
    // The bound grows with IMPORT_RUNS, never below the suite's own, and only catches a hang.
    180_000 + runs * 60_000,
  );

  describe('against examples/basic', () => {
    let harness: Awaited<ReturnType<typeof emulatorForTests>>;
    let basic: string;
    const secrets = {
      PAYMENTS_API_API_TOKEN: 'example-token-not-a-real-secret',
    };
    beforeAll(async () => {
      harness = await emulatorForTests();
      // examples/basic deployed by its own project, from a copy that keeps its state apart.
      basic = writeProject({}, 'acme-basic');
      for (const entry of ['monitor.config.ts', 'monitors', 'status', 'shared', 'assets', 'tsconfig.json'])
        cpTree(join(BASIC, entry), join(basic, entry));
      const deployed = await monitor(['deploy', '--yes'], { cwd: basic, env: harness.env });
      expect(deployed.code, deployed.stderr).toBe(0);
    });
    afterAll(async () => {
      await harness.close();
      cleanup(basic);
    });

    it('imports what examples/basic deployed into an empty project: the next diff shows No changes', async () => {
      const dir = emptyProject('taken-over');
      try {
        const dry = await monitor(['import', '--dry-run', '--json'], { cwd: dir, env: harness.env });
        const channels = harness.client.managed('AlertChannel');
        const live = [];
        for await (const page of channels.pages()) live.push(...page.items);
        // Values the service returns are copied from the account; the masked token from the code.
        const env: Record<string, string> = { ...harness.env, ...secrets };
        for (const s of (envelopeOf(dry).result as ImportJson).secrets) {
          if (s.masked) continue;
          const imported = (envelopeOf(dry).result as ImportJson).imported.find(
            (r) => r.logicalId === s.logicalId,
          );
          env[s.env] = valueAt(
            live.find((c) => c.id === imported?.physicalId),
            s.path,
          );
        }
        const result = await monitor(['import'], { cwd: dir, env });
        expect(result.code, result.stderr).toBe(0);
        expect(result.stderr).toMatch(/Recorded \d+ resources as owned by taken-over/);
        expect(readdirSync(join(dir, 'monitors')).sort()).toEqual([
          'alert-channels.monitor.ts',
          'check-groups.monitor.ts',
          'dashboards.monitor.ts',
          'maintenance-windows.monitor.ts',
          'status-pages.monitor.ts',
        ]);
        const groups = readFileSync(join(dir, 'monitors/check-groups.monitor.ts'), 'utf8');
        expect(groups).toContain("value: requiredEnv('PAYMENTS_API_API_TOKEN'), secret: true");
        expect(groups).not.toContain('example-token-not-a-real-secret');
        expect(readFileSync(join(dir, 'monitors/maintenance-windows.monitor.ts'), 'utf8')).toContain(
          'statusPageVisibility: { enabled: true, statusPages: [acmeStatus], services: [publicApi] }',
        );

        const diff = await monitor(['diff', '--detailed-exitcode'], { cwd: dir, env });
        expect(diff.stdout, diff.stderr).toContain('No changes.');
        expect(diff.code).toBe(0);

        // Run again: everything is owned now, so there is nothing left to import.
        const again = await monitor(['import'], { cwd: dir, env });
        expect(again.code).toBe(0);
        expect(again.stderr).toContain('Nothing to import');
      } finally {
        cleanup(dir);
      }
    });

    it('ends with the variables to set before the next diff, which then loads', async () => {
      const dir = emptyProject('next-steps');
      try {
        const result = await monitor(['import', '--kind', 'AlertChannel'], { cwd: dir, env: harness.env });
        expect(result.code, result.stderr).toBe(0);
        const next = result.stderr.slice(result.stderr.indexOf('Next:')).trimEnd().split('\n');
        expect(next[0]).toMatch(/^Next: set the \d+ variables the code reads with requiredEnv, then diff:$/);
        expect(next.at(-1)).toBe('  monitor diff');
        const names = next.slice(1, -1).map((line) => /^ {2}export (\w+)=…$/.exec(line)?.[1]);
        expect(names.length).toBeGreaterThan(0);
        expect(names).not.toContain(undefined);

        const unset = await monitor(['diff'], { cwd: dir, env: harness.env });
        expect(unset.code).toBe(3);
        for (const name of names) expect(unset.stderr).toContain(`environment variable ${name} is not set`);
        const env = {
          ...harness.env,
          ...Object.fromEntries(names.map((n) => [n as string, 'https://hooks.example.com/a-value'])),
        };
        const set = await monitor(['diff'], { cwd: dir, env });
        expect(set.stderr).not.toContain('requiredEnv');
        expect(set.code, set.stderr).toBe(0);
      } finally {
        cleanup(dir);
      }
    });

    it('refuses to overwrite files that exist, and writes and records nothing', async () => {
      const dir = emptyProject('dirty');
      try {
        mkdirSync(join(dir, 'monitors'));
        writeFileSync(join(dir, 'monitors/check-groups.monitor.ts'), '// mine\n');
        const before = snapshot(dir);
        const result = await monitor(['import', '--json'], { cwd: dir, env: harness.env });
        expect(result.code).toBe(1);
        const { error } = envelopeOf(result);
        expect(error?.code).toBe('files_exist');
        expect(error?.message).toContain('monitors/check-groups.monitor.ts');
        expect(error?.hint).toContain('--force');
        expect(snapshot(dir)).toEqual(before);
        expect(hasState(dir)).toBe(false);

        // With --force the file is replaced, and each group of the tags gets its own file.
        const forced = await monitor(['import', '--force', '--group-by', 'tag', '--json'], {
          cwd: dir,
          env: harness.env,
        });
        expect(forced.code, forced.stdout).toBe(0);
        const files = (envelopeOf(forced).result as ImportJson).files;
        expect(files).toEqual(
          expect.arrayContaining(['monitors/checkout.monitor.ts', 'monitors/prod.monitor.ts']),
        );
        expect(readFileSync(join(dir, 'monitors/checkout.monitor.ts'), 'utf8')).toContain(
          "export const checkout = new CheckGroup('checkout', {",
        );
        expect(hasState(dir)).toBe(true);
      } finally {
        cleanup(dir);
      }
    });

    it('refuses bad filters and output directories the project does not load, recording nothing', async () => {
      const dir = emptyProject('bad-input');
      try {
        const kind = await monitor(['import', '--kind', 'Checkgroups'], { cwd: dir, env: harness.env });
        expect(kind.code).toBe(1);
        expect(kind.stderr).toContain('unknown kind "Checkgroups"');
        expect(kind.stderr).toContain('kinds are AlertChannel, CheckGroup');

        const outside = await monitor(['import', '--kind', 'CheckGroup', '--out', 'elsewhere'], {
          cwd: dir,
          env: { ...harness.env, ...secrets },
        });
        expect(outside.code).toBe(1);
        expect(outside.stderr).toContain('include patterns do not load the generated files');
        expect(hasState(dir)).toBe(false);

        const none = await monitor(['import', '--name', 'No such*', '--dry-run'], {
          cwd: dir,
          env: harness.env,
        });
        expect(none.code).toBe(0);
        expect(none.stderr).toContain('Nothing to import');
      } finally {
        cleanup(dir);
      }
    });

    it('after lost state, --recover finds the code’s constructs again once confirmed, and writes no code', async () => {
      cleanup(join(basic, '.monitor/state'));
      const before = snapshot(join(basic, 'monitors'));
      const refused = await monitor(['import', '--recover'], { cwd: basic, env: harness.env });
      expect(refused.code).toBe(5);
      expect(refused.stderr).toContain(
        'matched by content alone need your confirmation; nothing was written or recorded:\n',
      );
      expect(refused.stderr).toMatch(/^ {2}AlertChannel opsgenie ← id \d+ “Opsgenie EU”$/m);
      expect(refused.stderr).toMatch(/^ {2}Dashboard acme-branded ← id \S+ “Acme \(branded\)”$/m);
      expect(refused.stderr).toContain('monitor import --recover --yes');
      expect(hasState(basic)).toBe(false);

      const recovered = await monitor(['import', '--recover', '--yes'], { cwd: basic, env: harness.env });
      expect(recovered.code, recovered.stderr).toBe(0);
      expect(recovered.stderr).toContain('AlertChannel opsgenie ← id');
      expect(recovered.stderr).toContain('(by content)');
      expect(snapshot(join(basic, 'monitors'))).toEqual(before);

      // Nothing is created twice or deleted: only the token the service masks is sent again.
      const diff = await monitor(['diff', '--json'], { cwd: basic, env: harness.env });
      const plan = JSON.parse(diff.stdout).plan;
      expect(plan.summary).toMatchObject({ create: 0, delete: 0, update: 1 });
      expect(plan.operations[0].changes).toEqual([
        expect.objectContaining({ path: 'environmentVariables[API_TOKEN].value', sensitive: true }),
      ]);
    });
  });
});

function cpTree(from: string, to: string): void {
  if (statSync(from).isDirectory()) {
    mkdirSync(to, { recursive: true });
    for (const name of readdirSync(from)) cpTree(join(from, name), join(to, name));
  } else writeFileSync(to, readFileSync(from));
}
