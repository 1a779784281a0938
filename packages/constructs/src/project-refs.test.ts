import { beforeEach, describe, expect, it } from 'vitest';
import {
  AlertChannel,
  CheckGroup,
  createSession,
  Dashboard,
  isPayloadRef,
  isProjectConstructRef,
  isProjectPayloadRef,
  MaintenanceWindow,
  PagerdutyAlertChannel,
  projectUseKey,
  replaceRefs,
  SlackAlertChannel,
  StatusPage,
  StatusPageService,
  synth,
} from './index.js';

beforeEach(() => {
  createSession();
});

const groupOf = (resources: ReturnType<typeof synth>['resources']) =>
  resources.find((r) => r.kind === 'CheckGroup');

describe('fromProject', () => {
  it('is a frozen, branded reference on every construct class; channel classes inherit it', () => {
    const ref = SlackAlertChannel.fromProject('platform', 'slack-incidents');
    expect(ref).toMatchObject({ kind: 'AlertChannel', project: 'platform', logicalId: 'slack-incidents' });
    expect(Object.isFrozen(ref)).toBe(true);
    expect(isProjectConstructRef(ref)).toBe(true);
    expect(isProjectConstructRef({ kind: 'AlertChannel', project: 'p', logicalId: 'x' })).toBe(false);
    expect(
      [
        AlertChannel.fromProject('p', 'a'),
        CheckGroup.fromProject('p', 'a'),
        StatusPage.fromProject('p', 'a'),
        StatusPageService.fromProject('p', 'a'),
        Dashboard.fromProject('p', 'a'),
        MaintenanceWindow.fromProject('p', 'a'),
      ].map((r) => r.kind),
    ).toEqual([
      'AlertChannel',
      'CheckGroup',
      'StatusPage',
      'StatusPageService',
      'Dashboard',
      'MaintenanceWindow',
    ]);
  });

  it('synthesizes as { $project, $ref } wherever a construct of its kind is accepted, and is no dependency', () => {
    const local = new PagerdutyAlertChannel('local', { serviceKey: 'k' });
    new CheckGroup('api', {
      name: 'API',
      alertChannels: [
        AlertChannel.fromProject('platform', 'pagerduty-oncall'),
        { channel: SlackAlertChannel.fromProject('platform', 'slack-incidents'), activated: false },
        local,
      ],
    });
    new StatusPage('page', {
      name: 'Page',
      url: 'page',
      cards: [{ name: 'Core', services: [StatusPageService.fromProject('status', 'payments')] }],
    });
    new MaintenanceWindow('window', {
      name: 'Window',
      startsAt: '2026-01-01T00:00:00Z',
      endsAt: '2026-01-01T01:00:00Z',
      statusPageVisibility: {
        statusPages: [StatusPage.fromProject('status', 'acme-status')],
        services: [StatusPageService.fromProject('status', 'search')],
      },
    });
    const { resources, diagnostics } = synth({ project: 'team' });
    expect(diagnostics).toEqual([]);
    const group = groupOf(resources);
    expect(group?.payload.alertChannelSubscriptions).toEqual([
      { alertChannelId: { $project: 'platform', $ref: 'AlertChannel:pagerduty-oncall' }, activated: true },
      { alertChannelId: { $project: 'platform', $ref: 'AlertChannel:slack-incidents' }, activated: false },
      { alertChannelId: { $ref: 'AlertChannel:local' }, activated: true },
    ]);
    expect(group?.dependsOn).toEqual(['AlertChannel:local']);
    const page = resources.find((r) => r.kind === 'StatusPage');
    expect(page?.payload.cards).toEqual([
      { name: 'Core', services: [{ id: { $project: 'status', $ref: 'StatusPageService:payments' } }] },
    ]);
    const window = resources.find((r) => r.kind === 'MaintenanceWindow');
    expect(window?.payload.statusPageVisibility).toMatchObject({
      statusPageIds: [{ $project: 'status', $ref: 'StatusPage:acme-status' }],
      serviceIds: [{ $project: 'status', $ref: 'StatusPageService:search' }],
    });
  });

  it('a reference of another kind, or a malformed project or logical id, is a problem at the prop', () => {
    new CheckGroup('api', {
      name: 'API',
      alertChannels: [
        // @ts-expect-error: a check group is no alert channel
        CheckGroup.fromProject('platform', 'pagerduty-oncall'),
        AlertChannel.fromProject('', 'pagerduty-oncall'),
        AlertChannel.fromProject(' platform', 'pagerduty-oncall'),
        AlertChannel.fromProject('platform', 'pager duty'),
      ],
    });
    const { diagnostics } = synth({ project: 'team' });
    expect(diagnostics.map((d) => [d.path, d.message])).toEqual([
      [
        'alertChannels[0]',
        'expected a AlertChannel, got CheckGroup.fromProject("platform", "pagerduty-oncall")',
      ],
      [
        'alertChannels[1]',
        'AlertChannel.fromProject("", "pagerduty-oncall"): the project must be the projectName of another project',
      ],
      [
        'alertChannels[2]',
        'AlertChannel.fromProject(" platform", "pagerduty-oncall"): the project must be the projectName of another project',
      ],
      [
        'alertChannels[3]',
        'AlertChannel.fromProject("platform", "pager duty"): the logical id is invalid (letters, digits and _ - / # . only)',
      ],
    ]);
    expect(diagnostics[1]?.hint).toContain("AlertChannel.fromProject('platform', 'its-logical-id')");
    expect(diagnostics[3]?.hint).toContain('logical id in project "platform"');
    // Reported once each: the schema sees a stand-in, not the bad reference.
    expect(diagnostics).toHaveLength(4);
  });

  it("a reference to the project's own construct is a problem whose hint is the construct itself", () => {
    new PagerdutyAlertChannel('pagerduty-oncall', { serviceKey: 'k' });
    new CheckGroup('api', {
      name: 'API',
      alertChannels: [
        AlertChannel.fromProject('platform', 'pagerduty-oncall'),
        AlertChannel.fromProject('platform', 'missing'),
      ],
    });
    const { diagnostics } = synth({ project: 'platform' });
    expect(diagnostics.map((d) => [d.path, d.message, d.hint])).toEqual([
      [
        'alertChannels[0]',
        'AlertChannel.fromProject("platform", "pagerduty-oncall") names this project ("platform"): fromProject is for another project\'s constructs',
        'use the construct itself: import PagerdutyAlertChannel "pagerduty-oncall" from where it is declared and pass it here',
      ],
      [
        'alertChannels[1]',
        'AlertChannel.fromProject("platform", "missing") names this project ("platform"): fromProject is for another project\'s constructs',
        'use the construct itself: this project has no AlertChannel "missing"; declare it, or name the project that owns it',
      ],
    ]);
  });

  it('a tag of a maintenance window cannot be another project’s group: it has no name here', () => {
    new MaintenanceWindow('window', {
      name: 'Window',
      startsAt: '2026-01-01T00:00:00Z',
      endsAt: '2026-01-01T01:00:00Z',
      // @ts-expect-error: tags are strings or CheckGroup constructs
      tags: [CheckGroup.fromProject('team', 'api')],
    });
    const { diagnostics } = synth({ project: 'platform' });
    expect(diagnostics.map((d) => [d.path, d.message])).toEqual([
      [
        'tags[0]',
        'must be a tag string or a CheckGroup construct (a fromId or fromProject group has no name here; use its name)',
      ],
    ]);
  });
});

describe('the payload form of a reference to another project', () => {
  const projectRef = { $project: 'platform', $ref: 'AlertChannel:pagerduty-oncall' };

  it('has exactly two keys, and is never a reference this project resolves', () => {
    expect(isProjectPayloadRef(projectRef)).toBe(true);
    expect(isPayloadRef(projectRef)).toBe(false);
    expect(isProjectPayloadRef({ $ref: 'AlertChannel:x' })).toBe(false);
    expect(isProjectPayloadRef({ ...projectRef, extra: 1 })).toBe(false);
    expect(projectUseKey(projectRef)).toBe('platform/AlertChannel:pagerduty-oncall');
  });

  it('replaceRefs leaves it as it is unless asked to replace it', () => {
    const payload = { subs: [{ id: projectRef }, { id: { $ref: 'AlertChannel:local' } }] };
    expect(replaceRefs(payload, () => 7)).toEqual({ subs: [{ id: projectRef }, { id: 7 }] });
    expect(
      replaceRefs(
        payload,
        (ref) => ref,
        (ref) => `${ref.$project}!`,
      ),
    ).toEqual({ subs: [{ id: 'platform!' }, { id: { $ref: 'AlertChannel:local' } }] });
  });
});
