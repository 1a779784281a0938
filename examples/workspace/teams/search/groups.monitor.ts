import { AlertChannel, CheckGroup } from '@monitor/constructs';

export const api = new CheckGroup('search-api', {
  name: 'Search API',
  tags: ['search', 'prod'],
  // The platform project owns the channels: referred to by its logical ids, never changed here.
  alertChannels: [
    AlertChannel.fromProject('platform', 'pagerduty-oncall'),
    AlertChannel.fromProject('platform', 'slack-incidents'),
  ],
});
