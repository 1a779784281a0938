import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { execFileInTest } from './support/children.js';
import { offlineLock } from './support/offline-lock.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const run = execFileInTest;
// Outside the repository, so that nothing resolves from the workspace's node_modules.
const dir = mkdtempSync(join(tmpdir(), 'monitor-install-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const npm = (args: string[], cwd: string) =>
  run('npm', args, { cwd, env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' } });
const monitor = (args: string[], cwd: string) =>
  run(join(cwd, 'node_modules/.bin/monitor'), args, {
    cwd,
    env: { ...process.env, NO_COLOR: '1', CI: 'true', MONITOR_API_KEY: '', MONITOR_ACCOUNT_ID: '' },
  });

describe('the packed tarballs', () => {
  it('install into a project with the network cut, then init, validate, deploy --local and diff work', async () => {
    const packed = await run(process.execPath, [join(ROOT, 'scripts/pack.mjs')], { cwd: ROOT });
    expect(packed.stdout).toContain('5 packages in');
    const out = join(ROOT, 'dist/packages');
    const tarballs: Record<string, string> = {};
    mkdirSync(join(dir, 'tarballs'));
    for (const file of readdirSync(out)) {
      copyFileSync(join(out, file), join(dir, 'tarballs', file));
      tarballs[`@monitor/${file.replace(/^monitor-/, '').replace(/-\d+\.\d+\.\d+\.tgz$/, '')}`] = join(
        dir,
        'tarballs',
        file,
      );
    }
    expect(Object.keys(tarballs).sort()).toEqual([
      '@monitor/api',
      '@monitor/cli',
      '@monitor/constructs',
      '@monitor/emulator',
      '@monitor/engine',
    ]);
    const lock = offlineLock(ROOT, tarballs, 'offline-project');
    writeFileSync(join(dir, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
    writeFileSync(
      join(dir, 'package.json'),
      `${JSON.stringify({ name: 'offline-project', private: true, type: 'module', dependencies: (lock as { packages: Record<string, { dependencies: object }> }).packages['']?.dependencies }, null, 2)}\n`,
    );
    // --offline: the npm cache only; a request to any registry fails the install.
    await npm(['ci', '--offline'], dir);

    const init = await monitor(['init'], dir);
    expect(init.stdout).toContain('created  monitor.config.ts');
    expect(init.stdout).toContain('created  monitors/example.monitor.ts');
    const validate = await monitor(['validate'], dir);
    expect(validate.stdout).toContain('2 constructs valid in 1 file');
    const deploy = await monitor(['deploy', '--local', '--yes'], dir);
    expect(deploy.stderr + deploy.stdout).toContain('2 created');
    const diff = await monitor(['diff', '--local', '--detailed-exitcode'], dir);
    expect(diff.stdout).toContain('No changes.');

    // A new project beside it carries copies of the same tarballs, all five, in vendor/: monitor
    // comes from no registry here, so that the project installs wherever it is copied.
    const sub = await monitor(['init', 'sub'], dir);
    expect(sub.stdout).toContain(
      `monitor comes from the tarballs monitor was installed from, in ${join(dir, 'tarballs')}, not from a registry.`,
    );
    const manifest = JSON.parse(readFileSync(join(dir, 'sub', 'package.json'), 'utf8'));
    expect(manifest.dependencies).toEqual(
      Object.fromEntries(
        Object.entries(tarballs).map(([name, tarball]) => [name, `file:vendor/${basename(tarball)}`]),
      ),
    );
    expect(manifest.devDependencies).toEqual({ typescript: '~5.9.3' });
    for (const tarball of Object.values(tarballs))
      expect(readFileSync(join(dir, 'sub', 'vendor', basename(tarball)))).toEqual(readFileSync(tarball));

    // --no-vendor: the paths of those tarballs, beside it.
    const linked = await monitor(['init', 'linked', '--no-vendor'], dir);
    expect(linked.stderr).toContain('warning: package.json depends on @monitor/api, @monitor/cli');
    expect(JSON.parse(readFileSync(join(dir, 'linked', 'package.json'), 'utf8')).dependencies).toEqual(
      Object.fromEntries(
        Object.entries(tarballs).map(([name, tarball]) => [name, `file:../tarballs/${basename(tarball)}`]),
      ),
    );
  });
});
