import { standardApiGroup } from '@acme/monitor-constructs';
import { AlertChannel, CheckGroup } from '@monitor/constructs';
import { API_BASE_URL } from '@shared/environments';
import { opsgenie, payments } from './alerting.monitor';

export const paymentsApi = standardApiGroup('Payments API', {
  baseUrl: `${API_BASE_URL}/payments`,
  tags: ['payments'],
  alertChannels: [payments.email, payments.slack],
  environmentVariables: [
    { key: 'API_REGION', value: 'eu' },
    { key: 'API_TOKEN', value: 'example-token-not-a-real-secret', secret: true },
  ],
});

export const checkout = new CheckGroup(
  'checkout',
  {
    name: 'Checkout',
    tags: ['checkout', 'prod'],
    muted: false,
    alertChannels: [opsgenie, { channel: AlertChannel.fromId(1), activated: false }],
    alertSettings: { escalationType: 'RUN_BASED', runBasedEscalation: { failedRunThreshold: 2 } },
    localSetupScript: { file: '../assets/setup.js' },
  },
  { protect: true },
);
