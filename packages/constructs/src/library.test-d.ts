import { describe, expectTypeOf, it } from 'vitest';
import {
  type AlertChannel,
  CheckGroup,
  type Dashboard,
  EmailAlertChannel,
  type MaintenanceWindow,
  PagerdutyAlertChannel,
  SlackAlertChannel,
  type StatusPage,
  type StatusPageService,
} from './index.js';

/**
 * A construct library as teams publish one, under `strict`: functions that take and return "some
 * channels" or "some groups" by the construct classes' own names.
 */
function monitoredService(name: string, channels: AlertChannel[]): CheckGroup[] {
  return [new CheckGroup(`${name}-api`, { name: `${name} API`, alertChannels: channels })];
}

function escalation(): AlertChannel[] {
  return [
    new PagerdutyAlertChannel('pd', { serviceKey: 'k' }),
    new SlackAlertChannel('slack', { url: 'https://hooks.slack.com/services/T/B/x' }),
  ];
}

describe('construct classes as types in a library', () => {
  it('AlertChannel[] holds channels of every type, and a group takes it', () => {
    const channels: AlertChannel[] = [...escalation(), new EmailAlertChannel('mail', { address: 'a@b.c' })];
    const groups = monitoredService('payments', channels);
    expectTypeOf(groups).toEqualTypeOf<CheckGroup[]>();
    expectTypeOf(channels[0]).toMatchTypeOf<AlertChannel | undefined>();
  });

  it('the other constructs are types of their own in lists', () => {
    const all: (Dashboard | StatusPage | StatusPageService | MaintenanceWindow)[] = [];
    expectTypeOf(all).toBeArray();
  });
});
