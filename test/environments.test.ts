import { DEV_API_KEY } from '@monitor/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cleanup,
  emulatorForTests,
  envelopeOf,
  monitor,
  writeFiles,
  writeProject,
} from './support/harness.js';

const STAGING = '5e7a9c1b-3d2f-4e6a-8b0c-1d2e3f4a5b6c';
const PRODUCTION = '9f8e7d6c-5b4a-4392-8a1b-0c9d8e7f6a5b';

const CONFIG = `import { defineConfig } from '@monitor/constructs';
export default defineConfig({
  projectName: 'acme',
  environments: { staging: { accountId: '${STAGING}' }, production: { accountId: '${PRODUCTION}' } },
});
`;
const page = (
  url: string,
) => `import { currentEnvironment, StatusPage, StatusPageService } from '@monitor/constructs';
const env = currentEnvironment<'staging' | 'production'>();
const api = new StatusPageService('api', { name: 'API' });
new StatusPage('status', { name: \`Acme \${env}\`, url: ${url}, cards: [{ name: 'Core', services: [api] }] });
`;

const open: { close(): Promise<void> }[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
  for (const d of dirs.splice(0)) cleanup(d);
});

async function setup(url: string) {
  const h = await emulatorForTests({
    accounts: [
      { id: STAGING, keys: [DEV_API_KEY] },
      { id: PRODUCTION, keys: [DEV_API_KEY] },
    ],
  });
  open.push(h);
  const dir = writeProject({ 'p.monitor.ts': page(url) });
  writeFiles(dir, { 'monitor.config.ts': CONFIG });
  dirs.push(dir);
  const env = { ...h.env, MONITOR_ACCOUNT_ID: '' };
  const run = (...args: string[]) => monitor(args, { cwd: dir, env });
  return { h, dir, env, run };
}

const pagesOf = async (h: Awaited<ReturnType<typeof emulatorForTests>>, account: string) => {
  const res = await fetch(`${h.emulator.url}/v1/status-pages`, {
    headers: { authorization: `Bearer ${DEV_API_KEY}`, 'x-monitor-account': account },
  });
  return ((await res.json()) as { entries: { name: string; url: string }[] }).entries;
};

// biome-ignore lint/suspicious/noTemplateCurlyInString: source code of a construct, a template literal in it
const NAME_BY_ENV = '`acme-status-${env}`';

describe('environments', () => {
  it("deploys one codebase to each environment's account; constructs read the environment", async () => {
    const { h, run } = await setup(NAME_BY_ENV);
    const staging = await run('deploy', '--env', 'staging', '--yes');
    expect(staging.code, staging.stderr).toBe(0);
    expect(staging.stdout).toContain(`monitor deploy: acme (staging) → account ${STAGING}`);
    const production = await monitor(['deploy', '--yes'], {
      cwd: dirs[0] ?? '',
      env: { ...h.env, MONITOR_ACCOUNT_ID: '', MONITOR_ENV: 'production' },
    });
    expect(production.code, production.stderr).toBe(0);
    expect(await pagesOf(h, STAGING)).toMatchObject([{ name: 'Acme staging', url: 'acme-status-staging' }]);
    expect(await pagesOf(h, PRODUCTION)).toMatchObject([
      { name: 'Acme production', url: 'acme-status-production' },
    ]);
    const json = envelopeOf(await run('diff', '--env', 'production', '--json', '--detailed-exitcode'));
    expect(json).toMatchObject({ exitCode: 0, environment: 'production', account: { id: PRODUCTION } });
  });

  it('needs an environment to reach an account, and never one MONITOR_ACCOUNT_ID contradicts', async () => {
    const { h, dir, run } = await setup(NAME_BY_ENV);
    const none = await run('diff');
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('the config defines environments (production, staging): which one?');
    expect(none.stderr).toContain('pass --env NAME, or set MONITOR_ENV');
    // The same with --local, whose emulator thread starts before the environment is checked: it
    // is closed, and the command ends.
    const local = await run('diff', '--local');
    expect(local.code).toBe(1);
    expect(local.stderr).toContain('the config defines environments (production, staging): which one?');
    const unknown = await run('diff', '--env', 'prod');
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('the config defines no environment "prod"');
    const before = h.emulator.requests.length;
    const contradicted = await monitor(['deploy', '--env', 'production', '--yes'], {
      cwd: dir,
      env: { ...h.env, MONITOR_ACCOUNT_ID: STAGING },
    });
    expect(contradicted.code).toBe(1);
    expect(contradicted.stderr).toContain(
      `MONITOR_ACCOUNT_ID is ${STAGING}, but environment "production" is account ${PRODUCTION}`,
    );
    expect(h.emulator.requests.length).toBe(before);
  });

  it("the account commands take --env too: the environment's account, never another", async () => {
    const { h, dir, run } = await setup(NAME_BY_ENV);
    expect((await run('deploy', '--env', 'production', '--yes')).code).toBe(0);
    const pages = await run('status-pages', 'incidents', 'list', '--env', 'production', '--json');
    expect(pages.code, pages.stdout).toBe(0);
    const envelope = JSON.parse(pages.stdout);
    expect(envelope.account.id).toBe(PRODUCTION);
    expect(envelope.environment).toBe('production');
    const viaVariable = await monitor(['checks', 'list', '--json'], {
      cwd: dir,
      env: { ...h.env, MONITOR_ACCOUNT_ID: '', MONITOR_ENV: 'staging' },
    });
    expect(JSON.parse(viaVariable.stdout).account.id).toBe(STAGING);

    const unknown = await run('checks', 'list', '--env', 'prod');
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('the config defines no environment "prod"');
    const outside = await monitor(['checks', 'list', '--env', 'production'], { cwd: '/', env: h.env });
    expect(outside.code).toBe(1);
    expect(outside.stderr).toContain('--env production needs a monitor.config.ts that defines it');
  });

  it('catches a unique key that would clash between environments, at its line', async () => {
    const { run } = await setup("'acme-status'");
    const result = await run('diff', '--env', 'staging');
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      /p\.monitor\.ts:4:\d+\s+error\s+StatusPage "status"\s+url: url "acme-status" is the same in environment production/,
    );
    const all = await run('validate');
    expect(all.code).toBe(3);
    expect(all.stdout).toContain('production: ');
    expect(all.stdout).toContain('staging: ');
  });

  it('whoami says which project, environment, account and base URL, and whether the key works, never the key', async () => {
    const { h, run } = await setup(NAME_BY_ENV);
    const who = await run('whoami', '--env', 'production');
    expect(who.code).toBe(0);
    expect(who.stdout).toContain('environment: production');
    expect(who.stdout).toContain(`account:     ${PRODUCTION}  from environment production in the config`);
    expect(who.stdout).toContain(`base URL:    ${h.emulator.url}  from MONITOR_BASE_URL`);
    expect(who.stdout).toContain('API key:     from MONITOR_API_KEY: accepted by the service');
    expect(who.stdout + who.stderr).not.toContain(DEV_API_KEY);
    const refused = await monitor(['whoami', '--env', 'staging', '--json'], {
      cwd: dirs[0] ?? '',
      env: { ...h.env, MONITOR_ACCOUNT_ID: '', MONITOR_API_KEY: 'mk_wrong' },
    });
    expect(refused.code).toBe(1);
    expect(envelopeOf(refused)).toMatchObject({
      result: { keyAccepted: false },
      error: { code: 'unauthorized' },
    });
    expect(refused.stdout).not.toContain('mk_wrong');
  });
});

describe('--local with environments', () => {
  it('each environment has its own local account and state: deploying production leaves staging as it was', async () => {
    // The page's url in the construct file is a template of the environment's name.
    const dir = writeProject({ 'p.monitor.ts': page(`\`acme-\${env}\``) });
    writeFiles(dir, { 'monitor.config.ts': CONFIG });
    dirs.push(dir);
    const run = (...args: string[]) => monitor(args, { cwd: dir, env: { MONITOR_ACCOUNT_ID: '' } });
    const staging = await run('deploy', '--env', 'staging', '--local', '--yes');
    expect(staging.code).toBe(0);
    expect(staging.stdout).toMatch(/2 created, 0 updated/);
    const production = await run('deploy', '--env', 'production', '--local', '--yes');
    expect(production.code).toBe(0);
    // Its own account: created, not staging's page renamed and its service taken over.
    expect(production.stdout).toMatch(/2 created, 0 updated/);
    for (const env of ['staging', 'production']) {
      const diff = await run('diff', '--env', env, '--local', '--detailed-exitcode');
      expect(diff.code, diff.stdout).toBe(0);
      const list = await run('state', 'list', '--env', env, '--local', '--json');
      expect(envelopeOf(list).result.location).toContain(`environments/${env}/state`);
    }
    // The operational commands reach the same local account of the environment.
    const pages = JSON.parse((await run('whoami', '--env', 'staging', '--local', '--json')).stdout);
    expect(pages.result.state).toContain('environments/staging/state');
  });
});
