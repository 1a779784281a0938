import { CheckGroup } from '@monitor/constructs';

export const api = new CheckGroup('search-api', {
  name: 'Search API',
  tags: ['search', 'prod'],
  alertChannels: [],
});
