import { describe, expectTypeOf, it } from 'vitest';
import { CheckGroup, type CheckGroupProps, Dashboard, EmailAlertChannel, StatusPage } from './index.js';

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
