import { AlertChannel, CheckGroup } from '@monitor/constructs';

export const api = new CheckGroup('payments-api', {
  name: 'Payments API',
  tags: ['payments', 'prod'],
  // The platform project owns the channels: referred to by its logical ids, never changed here.
  alertChannels: [AlertChannel.fromProject('platform', 'pagerduty-oncall')],
});
