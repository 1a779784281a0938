import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { KINDS, type ResourceKind, sensitiveValues } from '@monitor/api';
import { DEV_ACCOUNT_ID } from '@monitor/emulator';
import { load } from '@monitor/engine';
import { afterAll, describe, expect, it } from 'vitest';
import { fakeGitHub, GITHUB_ACTIONS_TOKEN } from './support/code-hosts.js';
import { cleanup, emulatorForTests, monitor, writeFiles, writeProject } from './support/harness.js';

/**
 * A canary per sensitive field: a quote, a backslash, a newline and a non-ASCII character, so
 * that it also shows up escaped inside JSON. `round` rotates every value. A URL cannot hold a
 * newline (the service's URL parsing drops it), so the Slack URL's canary has none.
 */
const canary = (field: string, round: number) =>
  field === 'slack' ? `c4n4ry"\\-é-${field}-${round}` : `c4n4ry"\\\n-é-${field}-${round}`;
/** What a canary turns into inside JSON: it must not be there either. */
const jsonForm = (value: string) => JSON.stringify(value).slice(1, -1);

/** Every sensitive field of every kind that a construct can set, each with its own canary. */
function project(round: number, withChannels = true): string {
  const v = (field: string) => JSON.stringify(canary(field, round));
  return `import {
  CheckGroup, Dashboard, OpsgenieAlertChannel, PagerdutyAlertChannel, SlackAlertChannel, WebhookAlertChannel,
} from '@monitor/constructs';
new CheckGroup('api', {
  name: 'API',
  environmentVariables: [{ key: 'TOKEN', value: ${v('env')}, secret: true }, { key: 'PLAIN', value: 'visible' }],
  apiCheckDefaults: { basicAuth: { username: 'ops', password: ${v('basic')} } },
});
new Dashboard('board', { header: 'Board', customUrl: 'canary-board', isPrivate: true });
${
  withChannels
    ? `new SlackAlertChannel('slack', { url: 'https://hooks.slack.example/' + ${v('slack')} });
new WebhookAlertChannel('hook', {
  name: 'Hook', url: 'https://hooks.example/in', webhookSecret: ${v('hmac')},
  headers: [{ key: 'Authorization', value: ${v('header')} }, { key: 'X-Plain', value: 'visible' }],
  queryParameters: [{ key: 'token', value: ${v('query')} }],
});
new PagerdutyAlertChannel('pd', { serviceKey: ${v('pagerduty')} });
new OpsgenieAlertChannel('og', { name: 'Ops', apiKey: ${v('opsgenie')}, region: 'EU', priority: 'P1' });`
    : ''
}
`;
}

const FIELDS = ['env', 'basic', 'slack', 'hmac', 'header', 'query', 'pagerduty', 'opsgenie'];

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) cleanup(d);
});

/**
 * Policies that try to leak every secret they can reach: a construct rule that throws or returns
 * its construct's payload, a plan rule that returns the plan with the account and one that throws
 * it, and a rule that reads a secret from the environment.
 */
const LEAKING_CONFIG = `import { defineConfig, definePolicy } from '@monitor/constructs';
const stringify = (value: unknown) => JSON.stringify(value, (_k, v) => (typeof v === 'function' ? String(v) : v));
export default defineConfig({
  projectName: 'e2e',
  policies: [
    definePolicy({ name: 'leak-throw', description: 'd', severity: 'warning', check: (r) => { throw new Error(stringify(r)); } }),
    definePolicy({ name: 'leak-return', description: 'd', severity: 'warning', check: (r, project) => ({ message: stringify(r.payload), hint: stringify(project.resources.map((x) => x.payload)) }) }),
    definePolicy({ name: 'plan-leak', description: 'd', severity: 'warning', scope: 'plan', check: (plan) => stringify({ operations: plan.operations, live: plan.live, conflicts: plan.conflicts }) }),
    definePolicy({ name: 'plan-throw', description: 'd', severity: 'warning', scope: 'plan', check: (plan) => { throw new Error(stringify(plan.live)); } }),
    definePolicy({ name: 'env-leak', description: 'd', severity: 'warning', kinds: ['CheckGroup'], check: () => 'token ' + process.env.LEAKED_TOKEN }),
  ],
});
`;

describe('policies see no secret, and what they say is cleaned', () => {
  it('construct and plan rules that print what they see, throw it or read it from the environment leak no sensitive field in any output', async () => {
    const h = await emulatorForTests();
    const dir = writeProject({ 's.monitor.ts': project(1) });
    dirs.push(dir);
    const outputs: string[] = [];
    const run = async (...args: string[]) => {
      const r = await monitor(args, { cwd: dir, env: { ...h.env, LEAKED_TOKEN: canary('env', 2) } });
      outputs.push(r.stdout, r.stderr);
      return r;
    };
    try {
      expect((await run('deploy', '--yes')).code).toBe(0);
      // The policies arrive, and the code rotates every secret: updates with sensitive changes.
      writeFiles(dir, { 'monitor.config.ts': LEAKING_CONFIG, 's.monitor.ts': project(2) });
      for (const args of [
        ['validate'],
        ['validate', '--json'],
        ['diff'],
        ['diff', '--json'],
        ['diff', '--format', 'markdown'],
      ]) {
        const r = await run(...args);
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(3);
      }
    } finally {
      await h.close();
    }
    const everything = outputs.join('\n');
    // The policies ran, and saw markers where the secrets are.
    expect(everything).toContain('policy \\"leak-throw\\" threw');
    expect(everything).toContain('plan-leak');
    expect(everything).toContain('(sensitive value)');
    const secrets = FIELDS.flatMap((f) => [canary(f, 1), canary(f, 2)]);
    for (const secret of secrets) {
      for (const form of [secret, jsonForm(secret), jsonForm(jsonForm(secret)), encodeURIComponent(secret)]) {
        expect(everything.includes(form), `a form of ${JSON.stringify(secret)} was printed`).toBe(false);
      }
    }
    expect(everything).not.toContain('c4n4ry');
  });
});

describe('secrets never leave', () => {
  it('the project sets every sensitive path of every kind (server-made dashboard keys are checked live)', async () => {
    const dir = writeProject({ 's.monitor.ts': project(1) });
    dirs.push(dir);
    const { resources } = await load({ cwd: dir });
    for (const [kind, def] of Object.entries(KINDS) as [ResourceKind, (typeof KINDS)[ResourceKind]][]) {
      for (const path of def.sensitive) {
        if (kind === 'Dashboard' && path.path.startsWith('keys[]')) continue;
        const only = { ...def, sensitive: [path] };
        const covered = resources.some(
          (r) => r.kind === kind && Object.keys(sensitiveValues(only, r.payload)).length > 0,
        );
        expect(covered, `${kind} ${path.path} is not set by the test project`).toBe(true);
      }
    }
  });

  it('in no diff, --json, saved plan, --debug log, deploy output, error message, PR comment, job summary or state file, through create, update and delete', async () => {
    const h = await emulatorForTests();
    const github = await fakeGitHub();
    const dir = writeProject({ 's.monitor.ts': project(1), 'event.json': '{"pull_request":{"number":5}}' });
    dirs.push(dir);
    const pullRequest = {
      GITHUB_ACTIONS: 'true',
      GITHUB_REPOSITORY: 'acme/web',
      GITHUB_TOKEN: GITHUB_ACTIONS_TOKEN,
      GITHUB_API_URL: github.url,
      GITHUB_EVENT_PATH: join(dir, 'event.json'),
      GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
    };
    const outputs: string[] = [];
    const run = async (...args: string[]) => {
      const r = await monitor(args, { cwd: dir, env: { ...h.env, ...pullRequest } });
      outputs.push(r.stdout, r.stderr);
      return r;
    };
    const faults = h.emulator.app.faults;
    let rawKeys: string[] = [];
    try {
      // Create: a preview in every format, then a first attempt the service refuses quoting the body.
      await run('diff', '--json', '--debug');
      await run('diff', '--out', 'create-plan.json', '--comment');
      faults.configure({ echoBodyInBadRequest: [{ method: 'POST', path: '/v1/alert-channels', nth: 2 }] });
      const refused = await run('deploy', '--yes', '--debug', '--comment');
      expect(refused.code).toBe(1);
      expect(refused.stderr + refused.stdout).toContain('Invalid request payload');
      faults.configure({});
      expect((await run('deploy', '--yes', '--json', '--debug')).code).toBe(0);
      const converged = await run('diff', '--detailed-exitcode');
      expect(converged.code, converged.stdout).toBe(0);

      // The dashboard key the service made: shown once in its create answer, never by monitor.
      const boards = Object.values(h.emulator.app.state.store.account(DEV_ACCOUNT_ID).tables.dashboards);
      rawKeys = boards.flatMap((b) => (b.keys as { rawKey: string }[]).map((k) => k.rawKey));
      expect(rawKeys).toHaveLength(1);

      // Update: every value rotated shows as a sensitive change and nothing else.
      writeFiles(dir, { 's.monitor.ts': project(2) });
      const changed = await run('diff');
      for (const path of [
        'environmentVariables[TOKEN].value',
        'apiCheckDefaults.basicAuth.password',
        'config.url',
        'config.webhookSecret',
        'config.headers[Authorization].value',
        'config.queryParameters[token].value',
        'config.serviceKey',
        'config.apiKey',
      ]) {
        expect(changed.stdout).toContain(`${path}: (sensitive value changed)`);
      }
      await run('diff', '--json');
      await run('diff', '--out', 'update-plan.json', '--comment');
      faults.configure({ echoBodyInBadRequest: [{ method: 'PUT', nth: 1 }] });
      expect((await run('deploy', '--yes', '--json', '--debug', '--comment')).code).toBe(1);
      faults.configure({});
      expect((await run('deploy', '--yes', '--debug')).code).toBe(0);
      expect((await run('diff', '--detailed-exitcode')).code).toBe(0);

      // Delete: the channels leave the code.
      writeFiles(dir, { 's.monitor.ts': project(2, false) });
      await run('diff', '--json');
      await run('diff', '--out', 'delete-plan.json', '--comment');
      expect((await run('deploy', '--yes', '--allow-deletes', '--json', '--debug', '--comment')).code).toBe(
        0,
      );
    } finally {
      await h.close();
      await github.close();
    }
    // Both comments were posted and then edited in place, and each edit reached GitHub.
    expect(github.threads.get('pr:5')).toHaveLength(2);
    expect(github.writes().filter((r) => r.method === 'PATCH').length).toBeGreaterThanOrEqual(3);
    outputs.push(
      ...github.requests.map((r) => `${r.path}\n${r.body}`),
      readFileSync(join(dir, 'summary.md'), 'utf8'),
    );

    // A key the service shows once is handed over in one place: a file only the user can read,
    // whose path the deploy printed, under a directory that git ignores whatever the project says.
    const handedOver = filesUnder(join(dir, '.monitor', 'secrets')).filter((f) => f.endsWith('.json'));
    expect(handedOver).toHaveLength(1);
    const keyFile = handedOver[0] as string;
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(
      Object.values(
        JSON.parse(readFileSync(keyFile, 'utf8')) as Record<string, Record<string, string>>,
      ).flatMap(Object.values),
    ).toEqual(rawKeys);
    expect(readFileSync(join(dir, '.monitor', 'secrets', '.gitignore'), 'utf8')).toContain('*');
    expect(outputs.join('\n')).toContain(
      `written to .monitor/secrets/${keyFile.split('/').pop()}, readable only by you`,
    );

    // The build cache copies the construct files, with the literals this project writes in them:
    // it is no copy of a secret monitor was handed, and it stays private and out of git.
    const cache = join(dir, '.monitor', 'cache');
    expect(readFileSync(join(cache, '.gitignore'), 'utf8')).toBe('*\n');
    expect(statSync(cache).mode & 0o077).toBe(0);
    const copies = filesUnder(cache).filter((f) => f.endsWith('.bundle') || /\/bundle-[^/]+/.test(f));
    expect(copies.some((f) => /\/bundle-[\w-]{24}/.test(f))).toBe(true);
    for (const f of copies) expect(statSync(f).mode & 0o077, f).toBe(0);
    const files = filesUnder(join(dir, '.monitor'))
      .filter((f) => !f.startsWith(join(dir, '.monitor', 'secrets')) && !f.startsWith(cache))
      .concat(['create-plan.json', 'update-plan.json', 'delete-plan.json'].map((f) => join(dir, f)));
    for (const file of files) outputs.push(readFileSync(file, 'utf8'));
    const everything = outputs.join('\n');
    expect(everything).toContain('visible');
    expect(everything).toContain('(sensitive value)');
    const secrets = [...FIELDS.flatMap((f) => [canary(f, 1), canary(f, 2)]), ...rawKeys];
    for (const secret of secrets) {
      for (const form of [secret, jsonForm(secret), jsonForm(jsonForm(secret)), encodeURIComponent(secret)]) {
        expect(everything.includes(form), `a form of ${JSON.stringify(secret)} was printed`).toBe(false);
      }
    }
    // The part of a canary before its quote would survive a redaction that missed the escaped form.
    expect(everything).not.toContain('c4n4ry');
  });
});
