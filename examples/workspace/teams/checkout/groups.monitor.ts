import { CheckGroup } from '@monitor/constructs';

export const api = new CheckGroup('checkout-api', {
  name: 'Checkout API',
  tags: ['checkout', 'prod'],
  alertChannels: [],
});
