import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { outsideDependencies, projectDependencies } from './install-source.js';
import { CLI_VERSION } from './version.js';

const project = '/home/you/ops';

describe('projectDependencies', () => {
  it('from a registry: its version of the packages, and TypeScript, as ranges', () => {
    const deps = projectDependencies(project, { kind: 'registry', describe: 'the registry' }, false);
    expect(deps).toEqual({
      source: 'registry',
      dependencies: { '@monitor/cli': `^${CLI_VERSION}`, '@monitor/constructs': `^${CLI_VERSION}` },
      devDependencies: { typescript: '~5.9.3' },
      vendored: {},
    });
  });

  it('vendored from installed tarballs: each in vendor/ by its file name, and TypeScript from the registry', () => {
    const tarballs = {
      '@monitor/api': '/srv/monitor/monitor-api-0.2.0.tgz',
      '@monitor/cli': '/srv/monitor/monitor-cli-0.2.0.tgz',
    };
    const deps = projectDependencies(project, { kind: 'tarballs', describe: 'tarballs', tarballs }, true);
    expect(deps.dependencies).toEqual({
      '@monitor/api': 'file:vendor/monitor-api-0.2.0.tgz',
      '@monitor/cli': 'file:vendor/monitor-cli-0.2.0.tgz',
    });
    expect(deps.devDependencies).toEqual({ typescript: '~5.9.3' });
    expect(deps.vendored).toEqual({
      'vendor/monitor-api-0.2.0.tgz': '@monitor/api',
      'vendor/monitor-cli-0.2.0.tgz': '@monitor/cli',
    });
    expect(outsideDependencies(project, { ...deps.dependencies, ...deps.devDependencies })).toEqual([]);
  });

  it('not vendored: the tarballs where they are, which a copy of the project elsewhere cannot reach', () => {
    const tarballs = { '@monitor/cli': '/srv/monitor/monitor-cli-0.2.0.tgz' };
    const deps = projectDependencies(project, { kind: 'tarballs', describe: 'tarballs', tarballs }, false);
    expect(deps.dependencies).toEqual({ '@monitor/cli': 'file:../../../srv/monitor/monitor-cli-0.2.0.tgz' });
    expect(outsideDependencies(project, deps.dependencies)).toEqual(['@monitor/cli']);
  });
});

describe('outsideDependencies', () => {
  it('names the file: dependencies that leave the project, not those inside it or from a registry', () => {
    expect(
      outsideDependencies(project, {
        zod: '^4.0.0',
        inside: 'file:vendor/x.tgz',
        dotted: 'file:./lib/y',
        parent: 'file:../monitor/packages/cli',
        absolute: `file:${join('/opt', 'monitor.tgz')}`,
        sneaky: 'file:vendor/../../z.tgz',
      }),
    ).toEqual(['absolute', 'parent', 'sneaky']);
  });
});
