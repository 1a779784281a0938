import { AlertChannel, CheckGroup, createSession, synth } from '@monitor/constructs';
import { describe, expect, it } from 'vitest';
import { routesOf } from './routes.js';
import { worldFromCode } from './world.js';

describe("routes from the code of a group subscribed to another project's channel", () => {
  it('name the channel by its project and logical id, read from the account with --live', () => {
    createSession();
    new CheckGroup('g', {
      name: 'G',
      alertChannels: [AlertChannel.fromProject('platform', 'pagerduty-oncall')],
    });
    const { resources } = synth({ project: 'team' });
    const [route] = routesOf(worldFromCode(resources), {
      now: new Date('2026-11-28T00:00:00Z'),
      timeZone: 'UTC',
    });
    expect(route?.subscriptions[0]).toMatchObject({
      channel: 'platform:pagerduty-oncall',
      missing: true,
      unread: true,
      label: "platform:pagerduty-oncall (project platform's: read from the account with --live)",
    });
  });
});
