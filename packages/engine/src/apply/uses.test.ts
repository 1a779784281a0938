import { AlertChannel, CheckGroup, createSession, type DesiredResource, synth } from '@monitor/constructs';
import { describe, expect, it } from 'vitest';
import { readLive } from '../live/read-live.js';
import { plan } from '../plan/plan.js';
import { type State, stateKey } from '../state/state.js';
import { FakeAccount, MemoryBackend } from '../test-support/doubles.js';
import { entry, stateOf } from '../test-support/planning.js';
import { apply } from './apply.js';

/** What a deploy records of the references to other projects' constructs: each entry's `uses`. */

const NOW = new Date('2026-11-28T00:00:00Z');

function code(build: () => void): DesiredResource[] {
  createSession();
  build();
  const { resources, diagnostics } = synth({ project: 'team' });
  expect(diagnostics).toEqual([]);
  return resources;
}

describe('recording uses', () => {
  it("a write records what it uses; a change of references alone is recorded with no call; the other project's resource is never touched", async () => {
    const account = new FakeAccount();
    // The platform project's channel, made in the account by that project.
    const channel = await account
      .managed('AlertChannel')
      .create({ type: 'EMAIL', config: { address: 'oncall@example.com' } });
    const platform: State = stateOf([entry('AlertChannel', 'oncall', channel.id)]);
    const projectStates = new Map([['platform', platform]]);
    const backend = new MemoryBackend();
    const referencing = code(() => {
      new CheckGroup('api', { name: 'API', alertChannels: [AlertChannel.fromProject('platform', 'oncall')] });
    });
    const first = plan(referencing, await readLive(account), await backend.read(), {
      now: NOW,
      projectStates,
    });
    account.calls.length = 0;
    const applied = await apply(first, { client: account, backend });
    expect(applied.ok).toBe(true);
    expect(account.calls).toEqual(['create CheckGroup']);
    expect(account.all('CheckGroup')[0]?.alertChannelSubscriptions).toEqual([
      { alertChannelId: channel.id, activated: true },
    ]);
    const key = stateKey('CheckGroup', 'api');
    expect(applied.state.resources[key]?.uses).toEqual(['platform/AlertChannel:oncall']);
    expect(Object.keys(applied.state.resources)).toEqual([key]);

    // The same channel by its id: nothing to send, the use is dropped from state.
    const byId = code(() => {
      new CheckGroup('api', { name: 'API', alertChannels: [AlertChannel.fromId(channel.id as number)] });
    });
    const second = plan(byId, await readLive(account), await backend.read(), { now: NOW });
    expect(second.operations).toEqual([]);
    expect(second.usesChanged).toEqual([{ key, uses: [] }]);
    account.calls.length = 0;
    const recorded = await apply(second, { client: account, backend });
    expect(account.calls).toEqual([]);
    expect(recorded.state.resources[key]).not.toHaveProperty('uses');
  });
});
