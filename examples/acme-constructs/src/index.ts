import {
  type AlertChannelRef,
  CheckGroup,
  type CheckGroupProps,
  type ConstructOptions,
  Dashboard,
  EmailAlertChannel,
  SlackAlertChannel,
} from '@monitor/constructs';

export interface TeamAlerting {
  email: EmailAlertChannel;
  slack: SlackAlertChannel;
}

/** The alert channels every Acme team gets: an on-call mailbox and the team's Slack channel. */
export function teamAlerting(team: string, options: { slackWebhook: string }): TeamAlerting {
  return {
    email: new EmailAlertChannel(`${team}-oncall-email`, {
      address: `${team}-oncall@acme.example`,
      sslExpiry: true,
    }),
    slack: new SlackAlertChannel(`${team}-slack`, { url: options.slackWebhook, channel: `#${team}-alerts` }),
  };
}

export interface StandardApiGroupOptions extends Partial<Omit<CheckGroupProps, 'name' | 'alertChannels'>> {
  /** Base URL the group's API checks call. */
  baseUrl: string;
  alertChannels: AlertChannelRef[];
}

/**
 * Acme's standard API check group: EU and US locations, retries on network errors, team alerting.
 * `constructOptions` (protect, aliases, adopt, ignoreChanges, policyExceptions) go to the group as
 * they are.
 */
export function standardApiGroup(
  name: string,
  options: StandardApiGroupOptions,
  constructOptions?: ConstructOptions,
): CheckGroup {
  const { baseUrl, alertChannels, ...rest } = options;
  const logicalId = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return new CheckGroup(
    logicalId,
    {
      name,
      locations: ['eu-west-1', 'us-east-1'],
      concurrency: 5,
      retryStrategy: { type: 'LINEAR', maxRetries: 2, onlyOn: ['NETWORK_ERROR'] },
      apiCheckDefaults: {
        url: baseUrl,
        headers: [{ key: 'x-acme-monitor', value: 'true' }],
        assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }],
      },
      ...rest,
      alertChannels,
      tags: ['acme', ...(rest.tags ?? [])],
    },
    constructOptions,
  );
}

/** A dashboard in Acme's brand: the theme file ships with this library and resolves against it. */
export function brandedDashboard(logicalId: string, header: string, tags: string[]): Dashboard {
  return new Dashboard(logicalId, { header, tags, customCSS: { file: './acme-theme.css' } });
}
