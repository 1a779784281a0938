import { PagerdutyAlertChannel, SlackAlertChannel } from '@monitor/constructs';

export const oncall = new PagerdutyAlertChannel('pagerduty-oncall', {
  serviceKey: 'pd-integration-key',
  serviceName: 'On-call',
});

export const incidents = new SlackAlertChannel('slack-incidents', {
  url: 'https://hooks.slack.example/services/T000/B000/incidents',
  channel: '#incidents',
});
