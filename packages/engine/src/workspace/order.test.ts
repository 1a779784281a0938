import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { affectedProjects, changedFiles } from './changed.js';
import { ChangedFilesError, ProjectCycleError } from './errors.js';
import { dependencyOrder, findCycle, withDependents } from './order.js';
import { referencedProjects } from './references.js';

const p = (name: string, ...dependsOn: string[]) => ({ name, dependsOn });

describe('dependencyOrder', () => {
  it('puts each project after those it references, otherwise keeping the order given', () => {
    const order = dependencyOrder([
      p('status', 'team-a'),
      p('team-a', 'platform'),
      p('team-b'),
      p('platform'),
    ]);
    expect(order.map((x) => x.name)).toEqual(['platform', 'team-a', 'status', 'team-b']);
  });

  it('leaves out references to projects that are not among them', () => {
    expect(dependencyOrder([p('team-a', 'elsewhere')]).map((x) => x.name)).toEqual(['team-a']);
  });

  it('refuses a cycle, naming it from a project back to itself', () => {
    const projects = [p('a', 'b'), p('b', 'c'), p('c', 'a'), p('d')];
    expect(findCycle(projects)).toEqual(['a', 'b', 'c', 'a']);
    expect(() => dependencyOrder(projects)).toThrow(ProjectCycleError);
    expect(() => dependencyOrder(projects)).toThrow('a → b → c → a');
    expect(findCycle([p('a', 'a')])).toEqual(['a', 'a']);
  });
});

describe('withDependents', () => {
  it('adds every project that references one of them, through others too', () => {
    const projects = [p('platform'), p('team-a', 'platform'), p('status', 'team-a'), p('team-b')];
    expect([...withDependents(new Set(['platform']), projects)].sort()).toEqual([
      'platform',
      'status',
      'team-a',
    ]);
    expect([...withDependents(new Set(['team-b']), projects)]).toEqual(['team-b']);
  });
});

describe('referencedProjects', () => {
  it('finds the projects of fromProject references anywhere in a payload', () => {
    const resource = (payload: Record<string, unknown>) =>
      ({ kind: 'CheckGroup', construct: 'CheckGroup', logicalId: 'g', payload, dependsOn: [] }) as never;
    const refs = referencedProjects([
      resource({
        alertChannelSubscriptions: [{ alertChannelId: { $project: 'platform', $ref: 'AlertChannel:pd' } }],
      }),
      resource({
        nested: { deeper: [{ $project: 'billing', $ref: 'CheckGroup:x' }] },
        local: { $ref: 'AlertChannel:y' },
      }),
    ]);
    expect(refs).toEqual(['billing', 'platform']);
  });
});

describe('affectedProjects', () => {
  const root = '/repo';
  const workspace = { root, file: '/repo/monitor.workspace.ts' };
  const projects = [
    { name: 'platform', dir: '/repo/platform', inputs: ['/repo/platform/channels.monitor.ts'] },
    {
      name: 'team-a',
      dir: '/repo/teams/a',
      inputs: ['/repo/teams/a/groups.monitor.ts', '/repo/libs/shared/index.ts'],
    },
    { name: 'team-ab', dir: '/repo/teams/ab', inputs: [] },
  ];
  const affected = (...files: string[]) => [...affectedProjects(projects, files, workspace)].sort();

  it('a file in the project, or a file its build reads', () => {
    expect(affected('/repo/platform/README.md')).toEqual(['platform']);
    expect(affected('/repo/libs/shared/index.ts')).toEqual(['team-a']);
    // A directory whose name starts with another's is not inside it.
    expect(affected('/repo/teams/ab/x.monitor.ts')).toEqual(['team-ab']);
  });

  it('not what monitor writes under .monitor/, nor files of no project', () => {
    expect(affected('/repo/platform/.monitor/state/x.json', '/repo/docs/README.md')).toEqual([]);
  });

  it('a manifest or lockfile in the project or above it (a dependency bump); the workspace file: all', () => {
    expect(affected('/repo/package-lock.json')).toEqual(['platform', 'team-a', 'team-ab']);
    expect(affected('/repo/teams/package.json')).toEqual(['team-a', 'team-ab']);
    expect(affected('/repo/monitor.workspace.ts')).toEqual(['platform', 'team-a', 'team-ab']);
  });
});

describe('changedFiles (a real git repository)', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
      cwd,
      encoding: 'utf8',
    });

  it('names what changed since the merge base with the ref: committed, uncommitted and untracked', () => {
    const repo = mkdtempSync(join(tmpdir(), 'monitor-changed-'));
    dirs.push(repo);
    git(repo, 'init', '-q', '-b', 'main');
    mkdirSync(join(repo, 'a'));
    writeFileSync(join(repo, 'a', 'x.ts'), '1');
    writeFileSync(join(repo, 'b.ts'), '1');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'base');
    git(repo, 'checkout', '-q', '-b', 'feature');
    writeFileSync(join(repo, 'a', 'x.ts'), '2');
    git(repo, 'commit', '-q', '-am', 'feature');
    // main moves on after the branch: its change is not the branch's.
    git(repo, 'checkout', '-q', 'main');
    writeFileSync(join(repo, 'b.ts'), '2');
    git(repo, 'commit', '-q', '-am', 'main moves');
    git(repo, 'checkout', '-q', 'feature');
    writeFileSync(join(repo, 'new.ts'), 'untracked');
    expect(changedFiles('main', join(repo, 'a')).map((f) => f.slice(repo.length))).toEqual([
      '/a/x.ts',
      '/new.ts',
    ]);
  });

  it('a ref git does not know is a clear error with the fix', () => {
    const repo = mkdtempSync(join(tmpdir(), 'monitor-changed-'));
    dirs.push(repo);
    git(repo, 'init', '-q');
    expect(() => changedFiles('origin/nope', repo)).toThrow(ChangedFilesError);
    expect(() => changedFiles('origin/nope', repo)).toThrow(/cannot compare with "origin\/nope"/);
    // Never read as an option: `git diff --output=…` would write a file.
    writeFileSync(join(repo, 'f'), 'x');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'one');
    const written = join(repo, 'written-by-git');
    expect(() => changedFiles(`--output=${written}`, repo)).toThrow(ChangedFilesError);
    expect(existsSync(written)).toBe(false);
    const outside = mkdtempSync(join(tmpdir(), 'monitor-not-git-'));
    dirs.push(outside);
    expect(() => changedFiles('main', outside)).toThrow(/not in a git repository/);
  });
});
