import type { Client } from '@monitor/api';
import {
  AlertChannel,
  CheckGroup,
  createSession,
  type DesiredResource,
  EmailAlertChannel,
  synth,
} from '@monitor/constructs';
import { describe, expect, it } from 'vitest';
import type { LoadedProject } from '../load/load.js';
import { selectPolicies } from '../policy/select.js';
import type { OtherProjects } from '../state/other-projects.js';
import type { State } from '../state/state.js';
import { FakeAccount, MemoryBackend } from '../test-support/doubles.js';
import { type Consent, deploy, destroy } from './deploy.js';
import { diff } from './diff.js';
import { lostState } from './lost-state.js';
import type { Target } from './target.js';

/** Two projects in one account, one referencing the other's channel: the flows end to end over a fake account. */

const NOW = new Date('2026-11-28T00:00:00Z');
const approve = async (): Promise<Consent> => ({ approved: true });

function resources(name: string, build: () => void): DesiredResource[] {
  createSession();
  build();
  const { resources: made, diagnostics } = synth({ project: name });
  expect(diagnostics).toEqual([]);
  return made;
}

/** The projects of one account, each with its state; `reads` counts the reads of every state at once. */
class Projects {
  readonly backends = new Map<string, MemoryBackend>();
  reads = 0;

  constructor(readonly account: FakeAccount) {}

  target(name: string, code: DesiredResource[]): Target {
    const backend = this.backends.get(name) ?? new MemoryBackend();
    this.backends.set(name, backend);
    const project = {
      resources: code,
      config: { projectName: name, policies: selectPolicies([], {}).set, routingTests: [] },
      findings: [],
    } as unknown as LoadedProject;
    const others: OtherProjects = {
      where: 'the test',
      state: async (other) => (other === name ? undefined : this.backends.get(other)?.read()),
      all: async () => {
        this.reads++;
        const states = new Map<string, State>();
        for (const [other, b] of this.backends) if (other !== name) states.set(other, await b.read());
        return states;
      },
    };
    const client = this.account as unknown as Client;
    return { project, client, accountId: 'acct', backend, service: 'test', otherProjects: others };
  }
}

const platformCode = (withChannel: boolean) =>
  resources('platform', () => {
    if (withChannel) new EmailAlertChannel('oncall', { address: 'oncall@example.com' });
    new EmailAlertChannel('other', { address: 'other@example.com' });
  });
const teamCode = () =>
  resources('team', () => {
    new CheckGroup('api', { name: 'API', alertChannels: [AlertChannel.fromProject('platform', 'oncall')] });
  });

describe('references across projects, deploy to destroy', () => {
  it('the referencing project waits for the owner, subscribes to its id, and keeps the owner from deleting it', async () => {
    const projects = new Projects(new FakeAccount());
    const options = { command: 'test', confirm: approve, now: NOW };

    // Before the platform deployed: the reference does not resolve, nothing is written.
    const early = await deploy(projects.target('team', teamCode()), options);
    expect(early.status).toBe('conflicts');
    expect(early.plan.conflicts.map((c) => [c.reason, c.holder, c.value, c.missing])).toEqual([
      ['unresolved', 'platform', 'AlertChannel:oncall', 'project'],
    ]);
    expect(projects.account.all('CheckGroup')).toEqual([]);

    expect((await deploy(projects.target('platform', platformCode(true)), options)).status).toBe('applied');
    const team = await deploy(projects.target('team', teamCode()), options);
    expect(team.status).toBe('applied');
    const channel = projects.account
      .all('AlertChannel')
      .find((c) => (c.config as { address?: string } | undefined)?.address === 'oncall@example.com');
    expect(projects.account.all('CheckGroup')[0]?.alertChannelSubscriptions).toEqual([
      { alertChannelId: channel?.id, activated: true },
    ]);
    expect(team.plan.projectRefs).toEqual([
      { from: 'CheckGroup:api', project: 'platform', ref: 'AlertChannel:oncall', physicalId: channel?.id },
    ]);
    const { plan: clean } = await diff(projects.target('team', teamCode()), { now: NOW });
    expect(clean.operations).toEqual([]);
    // A plan that deletes nothing reads no other project's state whole.
    expect(projects.reads).toBe(0);

    // The platform removes the channel: refused, naming the team; so is a destroy.
    const removal = await deploy(projects.target('platform', platformCode(false)), options);
    expect(removal.status).toBe('conflicts');
    expect(removal.plan.conflicts.map((c) => [c.reason, c.logicalId, c.usedBy])).toEqual([
      ['referenced', 'oncall', ['team/CheckGroup:api']],
    ]);
    const destroyed = await destroy(projects.target('platform', platformCode(true)), options);
    expect(destroyed.status).toBe('conflicts');
    expect(projects.account.all('AlertChannel')).toHaveLength(2);

    // --force-orphan: it goes, and the team's reference no longer resolves.
    const forced = await deploy(projects.target('platform', platformCode(false)), {
      ...options,
      forceOrphan: true,
    });
    expect(forced.status).toBe('applied');
    expect(forced.plan.orphaned).toEqual([{ key: 'AlertChannel:oncall', usedBy: ['team/CheckGroup:api'] }]);
    expect(projects.account.all('AlertChannel')).toHaveLength(1);
    const { plan: after } = await diff(projects.target('team', teamCode()), { now: NOW });
    expect(after.conflicts.map((c) => [c.reason, c.missing])).toEqual([['unresolved', 'construct']]);
  });

  it("a lost state is told as such for constructs that reference another project's", async () => {
    const projects = new Projects(new FakeAccount());
    const options = { command: 'test', confirm: approve, now: NOW };
    expect((await deploy(projects.target('platform', platformCode(true)), options)).status).toBe('applied');
    expect((await deploy(projects.target('team', teamCode()), options)).status).toBe('applied');
    // The team's state is lost: its group is in the account, unowned, as the code says.
    projects.backends.set('team', new MemoryBackend());
    const target = projects.target('team', teamCode());
    const { plan: made } = await diff(target, { now: NOW });
    expect(made.conflicts.map((c) => c.reason)).toEqual(['exists']);
    expect(await lostState(made, target)).toEqual({ found: 1, byKind: { CheckGroup: 1 } });
  });
});
