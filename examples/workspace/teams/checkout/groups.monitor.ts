import { AlertChannel, CheckGroup } from '@monitor/constructs';

export const api = new CheckGroup('checkout-api', {
  name: 'Checkout API',
  tags: ['checkout', 'prod'],
  // The platform project owns the channels: referred to by its logical ids, never changed here.
  alertChannels: [AlertChannel.fromProject('platform', 'pagerduty-oncall')],
});
