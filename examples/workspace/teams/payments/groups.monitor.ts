import { CheckGroup } from '@monitor/constructs';

export const api = new CheckGroup('payments-api', {
  name: 'Payments API',
  tags: ['payments', 'prod'],
  alertChannels: [],
});
