import { teamAlerting } from '@acme/monitor-constructs';
import {
  OpsgenieAlertChannel,
  PagerdutyAlertChannel,
  PhoneCallAlertChannel,
  SlackAppAlertChannel,
  SmsAlertChannel,
  WebhookAlertChannel,
} from '@monitor/constructs';
import { SLACK_WEBHOOK } from '@shared/environments';

export const payments = teamAlerting('payments', { slackWebhook: SLACK_WEBHOOK });

export const slackApp = new SlackAppAlertChannel('ops-slack-app', { slackChannels: ['#ops'] });
export const webhook = new WebhookAlertChannel('incident-webhook', {
  name: 'Incident bot',
  url: 'https://bots.acme.example/incidents',
  method: 'POST',
  headers: [{ key: 'x-source', value: 'monitor' }],
});
export const sms = new SmsAlertChannel('oncall-sms', { number: '+31612345678', name: 'On-call phone' });
export const call = new PhoneCallAlertChannel('oncall-call', { number: '+31612345678', sendRecovery: false });
export const pagerduty = new PagerdutyAlertChannel('pagerduty', {
  serviceKey: 'pd-integration-key',
  serviceName: 'Payments',
});
export const opsgenie = new OpsgenieAlertChannel('opsgenie', {
  name: 'Opsgenie EU',
  apiKey: 'og-api-key',
  region: 'EU',
  priority: 'P2',
});
