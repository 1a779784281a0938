import { KINDS } from '@monitor/api';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  AlertChannel,
  CheckGroup,
  CONSTRUCT_SOURCES,
  createSession,
  Dashboard,
  EmailAlertChannel,
  isSourceRef,
  MaintenanceWindow,
  PhoneCallAlertChannel,
  type ResourceKind,
  replaceRefs,
  SlackAppAlertChannel,
  StatusPage,
  StatusPageService,
  synth,
  WebhookAlertChannel,
} from './index.js';

beforeEach(() => {
  createSession();
});

const FROM_ID: Partial<Record<ResourceKind, { fromId(id: never): unknown }>> = {
  AlertChannel,
  CheckGroup,
  StatusPage,
  StatusPageService,
};

type Construct = new (logicalId: string, props: object) => unknown;

/** The classes sources name, as generated code imports them. */
const CLASSES: Record<string, Construct> = {
  CheckGroup,
  Dashboard,
  StatusPage,
  StatusPageService,
  MaintenanceWindow,
  EmailAlertChannel,
  SlackAppAlertChannel,
  PhoneCallAlertChannel,
  WebhookAlertChannel,
} as unknown as Record<string, Construct>;

/** Every construct class, with props that set what it can, including references. */
function everything(): void {
  const mail = new EmailAlertChannel('mail', { address: 'ops@example.com', sendDegraded: true });
  new SlackAppAlertChannel('slack', { slackChannels: ['#ops'], sslExpiry: true });
  new PhoneCallAlertChannel('call', { number: '+31612345678' });
  new WebhookAlertChannel('hook', {
    name: 'Hook',
    url: 'https://hooks.example.com/in',
    headers: [{ key: 'X-Team', value: 'ops' }],
  });
  new CheckGroup('payments', {
    name: 'Payments',
    muted: true,
    tags: ['prod'],
    alertChannels: [mail, { channel: AlertChannel.fromId(77), activated: false }],
    environmentVariables: [{ key: 'REGION', value: 'eu' }],
    retryStrategy: { type: 'LINEAR', maxRetries: 2 },
    localSetupScript: 'console.log(1)\r\n',
  });
  new Dashboard('ops', { header: 'Ops', customUrl: 'ops-wall', refreshRate: 300, customCSS: '.a{}' });
  const api = new StatusPageService('api', { name: 'API' });
  const page = new StatusPage('status', {
    name: 'Status',
    url: 'acme-status',
    cards: [{ name: 'Core', services: [api, StatusPageService.fromId('svc-9')] }],
    defaultTheme: 'DARK',
  });
  new MaintenanceWindow('upgrade', {
    name: 'Upgrade',
    startsAt: '2027-01-01T10:00:00.000Z',
    endsAt: '2027-01-01T12:00:00.000Z',
    tags: ['Payments', 'db'],
    statusPageVisibility: {
      enabled: true,
      statusPages: [page],
      services: [api],
      reminderMinutesBefore: [60],
    },
  });
}

describe('CONSTRUCT_SOURCES', () => {
  it('is the inverse of synthesis: a live resource written as its construct synthesizes what the account has', () => {
    everything();
    const first = synth();
    expect(first.diagnostics).toEqual([]);
    // The account: references resolved to ids, and fields only the service sets.
    const ids = new Map(
      first.resources.map((r, i) => [
        `${r.kind}:${r.logicalId}`,
        KINDS[r.kind].operations.idType === 'string' ? `id-${i}` : 100 + i,
      ]),
    );
    const live = first.resources.map((r) => ({
      resource: r,
      payload: replaceRefs(r.payload, (ref) => ids.get(ref.$ref)) as Record<string, unknown>,
    }));

    createSession();
    const written: string[] = [];
    for (const { resource, payload } of live) {
      const source = CONSTRUCT_SOURCES[resource.kind].source({ ...payload, id: 1, created_at: '2027-01-01' });
      written.push(source.construct);
      // As generated code writes references to resources it does not declare: `Kind.fromId(id)`.
      const props = JSON.parse(JSON.stringify(source.props), (_key, value) =>
        isSourceRef(value) ? FROM_ID[value.kind]?.fromId(value.physicalId as never) : value,
      ) as object;
      new (CLASSES[source.construct] as Construct)(resource.logicalId, props);
    }
    expect(written).toEqual(first.resources.map((r) => r.construct));
    const again = synth();
    expect(again.diagnostics).toEqual([]);
    expect(again.resources.map((r) => r.payload)).toEqual(live.map((l) => l.payload));
  });

  it('names each kind’s module and what tells its constructs apart', () => {
    expect(CONSTRUCT_SOURCES.StatusPageService.module).toBe('status-pages');
    const slackApp = CONSTRUCT_SOURCES.AlertChannel.source({
      type: 'SLACK_APP',
      config: { slackChannels: ['#a'] },
    });
    expect(slackApp).toEqual({
      construct: 'SlackAppAlertChannel',
      props: { slackChannels: ['#a'] },
      qualifier: 'SLACK APP',
    });
    expect(() => CONSTRUCT_SOURCES.AlertChannel.source({ type: 'PIGEON', config: {} })).toThrow(
      'alert channel type PIGEON has no construct',
    );
  });
});
