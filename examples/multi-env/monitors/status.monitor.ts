import { CheckGroup, currentEnvironment, StatusPage, StatusPageService } from '@monitor/constructs';

type Environment = 'staging' | 'production';
const env = currentEnvironment<Environment>() ?? 'staging';

/** Status-page URLs are unique across all accounts: each environment gets its own. */
const suffix = env === 'production' ? '' : `-${env}`;

export const api = new StatusPageService('api', { name: 'API' });

export const status = new StatusPage('status', {
  name: env === 'production' ? 'Acme status' : `Acme status (${env})`,
  url: `acme-multi-env-status${suffix}`,
  cards: [{ name: 'Core', services: [api] }],
});

export const checks = new CheckGroup('api-checks', {
  name: 'API checks',
  tags: ['api', env],
  locations: env === 'production' ? ['eu-west-1', 'us-east-1'] : ['eu-west-1'],
  // Production pages people; staging only records.
  muted: env !== 'production',
  apiCheckDefaults: {
    url: env === 'production' ? 'https://api.acme.example' : 'https://staging.api.acme.example',
  },
});
