import { describe, expectTypeOf, it } from 'vitest';
import {
  CheckGroup,
  type CheckGroupProps,
  type ConstructOptions,
  Dashboard,
  EmailAlertChannel,
  MaintenanceWindow,
  StatusPage,
  StatusPageService,
} from './index.js';

describe('construct props are typed', () => {
  it('rejects a wrong enum value', () => {
    // @ts-expect-error: not a location
    new CheckGroup('g', { name: 'g', locations: ['mars-1'] });
    // @ts-expect-error: refreshRate is 60, 300 or 600
    new Dashboard('d', { header: 'h', refreshRate: 30 });
    // @ts-expect-error: defaultTheme is LIGHT, DARK or AUTO
    new StatusPage('p', { name: 'p', url: 'p', defaultTheme: 'BLUE' });
  });

  it('rejects unknown props and missing required ones', () => {
    // @ts-expect-error: frequncy is not a prop
    new CheckGroup('g', { name: 'g', frequncy: 5 });
    // @ts-expect-error: name is required
    new CheckGroup('g', { tags: [] });
    // @ts-expect-error: address is required
    new EmailAlertChannel('e', {});
  });

  it('takes references as constructs, not ids', () => {
    expectTypeOf<CheckGroupProps['alertChannels']>().not.toEqualTypeOf<number[] | undefined>();
    // @ts-expect-error: an id is not a channel; use AlertChannel.fromId(1)
    new CheckGroup('g', { name: 'g', alertChannels: [1] });
  });
});

describe('construct options are the third argument, not props', () => {
  it('rejects an option written among the props', () => {
    // @ts-expect-error: protect is an option: new CheckGroup('g', { name: 'g' }, { protect: true })
    new CheckGroup('g', { name: 'g', protect: true });
    // @ts-expect-error: ignoreChanges is an option
    new CheckGroup('g', { name: 'g', ignoreChanges: ['muted'] });
    // @ts-expect-error: aliases is an option
    new Dashboard('d', { header: 'h', aliases: ['old'] });
    // @ts-expect-error: adopt is an option
    new EmailAlertChannel('e', { address: 'a@b.c', adopt: true });
    // @ts-expect-error: policyExceptions is an option
    new StatusPageService('s', { name: 's', policyExceptions: [] });
  });

  it('takes every option as the third argument, of every construct', () => {
    const options: ConstructOptions = {
      protect: true,
      aliases: ['old'],
      adopt: true,
      ignoreChanges: ['muted'],
      policyExceptions: [{ policy: 'group-without-alert-channel', reason: 'a canary' }],
    };
    new CheckGroup('g', { name: 'g' }, options);
    new Dashboard('d', { header: 'h' }, { protect: true });
    new StatusPage('p', { name: 'p', url: 'p' }, { adopt: true });
    new StatusPageService('s', { name: 's' }, { aliases: ['t'] });
    new MaintenanceWindow(
      'm',
      { name: 'm', startsAt: '2026-01-01T00:00:00Z', endsAt: '2026-01-01T01:00:00Z' },
      { ignoreChanges: ['name'] },
    );
    new EmailAlertChannel('e', { address: 'a@b.c' }, { policyExceptions: [] });
    expectTypeOf<keyof CheckGroupProps & keyof ConstructOptions>().toEqualTypeOf<never>();
  });

  it('rejects a prop or an unknown name among the options', () => {
    // @ts-expect-error: muted is a prop, not an option
    new CheckGroup('g', { name: 'g' }, { muted: true });
    // @ts-expect-error: protect is a boolean
    new CheckGroup('g', { name: 'g' }, { protect: 'yes' });
  });
});
