import { CHECK_GROUP_DEFAULTS, DASHBOARD_DEFAULTS, MAINTENANCE_WINDOW_DEFAULTS } from '@monitor/api';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  AlertChannel,
  CheckGroup,
  createSession,
  Dashboard,
  EmailAlertChannel,
  MaintenanceWindow,
  OpsgenieAlertChannel,
  PagerdutyAlertChannel,
  requiredEnv,
  SlackAlertChannel,
  StatusPage,
  StatusPageService,
  type SynthContext,
  synth,
  WebhookAlertChannel,
} from './index.js';
import { SYNTHESIZE } from './session.js';

beforeEach(() => {
  createSession();
});

describe('CheckGroup', () => {
  it('synthesizes a minimal group, fully defaulted', () => {
    new CheckGroup('payments', { name: 'Payments' });
    const { resources, diagnostics } = synth();
    expect(diagnostics).toEqual([]);
    expect(resources).toHaveLength(1);
    const [group] = resources;
    expect(group).toMatchObject({
      kind: 'CheckGroup',
      construct: 'CheckGroup',
      logicalId: 'payments',
      dependsOn: [],
    });
    expect(group?.payload).toEqual({
      ...CHECK_GROUP_DEFAULTS,
      name: 'Payments',
      environmentVariables: [],
      alertChannelSubscriptions: [],
    });
    expect(group?.options).toEqual({
      protect: false,
      aliases: [],
      adopt: false,
      ignoreChanges: [],
      policyExceptions: [],
    });
    expect(group?.location?.file).toMatch(/constructs\.test\.ts$/);
  });

  it('synthesizes full props, references and nested defaults', () => {
    const slack = new SlackAlertChannel('slack', { url: 'https://hooks.slack.com/x', channel: '#ops' });
    new CheckGroup(
      'payments',
      {
        name: 'Payments',
        tags: ['api'],
        locations: ['eu-west-1', 'us-east-1'],
        concurrency: 5,
        runtimeId: '2025.04',
        apiCheckDefaults: { url: 'https://api.example.com' },
        alertSettings: { escalationType: 'TIME_BASED' },
        retryStrategy: { type: 'EXPONENTIAL', maxRetries: 3 },
        environmentVariables: [{ key: 'TOKEN', value: 's3cret', secret: true }],
        alertChannels: [slack, { channel: AlertChannel.fromId(77), activated: false }],
      },
      { protect: true, aliases: ['payments-old'] },
    );
    const { resources, diagnostics } = synth();
    expect(diagnostics).toEqual([]);
    const group = resources.find((r) => r.kind === 'CheckGroup');
    expect(group?.payload).toMatchObject({
      apiCheckDefaults: {
        url: 'https://api.example.com',
        headers: [],
        assertions: [],
        basicAuth: { username: '', password: '' },
      },
      alertSettings: { escalationType: 'TIME_BASED', runBasedEscalation: { failedRunThreshold: 1 } },
      retryStrategy: { type: 'EXPONENTIAL', maxRetries: 3, baseBackoffSeconds: 60, sameRegion: true },
      environmentVariables: [{ key: 'TOKEN', value: 's3cret', secret: true, locked: false }],
      alertChannelSubscriptions: [
        { alertChannelId: { $ref: 'AlertChannel:slack' }, activated: true },
        { alertChannelId: 77, activated: false },
      ],
    });
    expect(group?.dependsOn).toEqual(['AlertChannel:slack']);
    expect(group?.options).toEqual({
      protect: true,
      aliases: ['payments-old'],
      adopt: false,
      ignoreChanges: [],
      policyExceptions: [],
    });
    expect(group?.payload).not.toHaveProperty('protect');
  });

  it('applies config defaults where the construct does not set the prop', () => {
    new CheckGroup('a', { name: 'A' });
    new CheckGroup('b', { name: 'B', locations: ['ap-south-1'] });
    const { resources } = synth({
      defaults: { CheckGroup: { locations: ['eu-west-1'], runtimeId: '2026.04', tags: ['team-x'] } },
    });
    expect(resources.map((r) => [r.payload.locations, r.payload.runtimeId, r.payload.tags])).toEqual([
      [['eu-west-1'], '2026.04', ['team-x']],
      [['ap-south-1'], '2026.04', ['team-x']],
    ]);
  });

  it('reads a file prop relative to the file that made the construct', () => {
    new Dashboard('d', { header: 'x', customCSS: { file: './fixtures/theme.css' } });
    new Dashboard('missing', { header: 'y', customCSS: { file: './nope.css' } });
    const { resources, diagnostics } = synth();
    expect(resources[0]?.payload.customCSS).toBe('.banner {\n  color: red;\n}\n');
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ logicalId: 'missing', path: 'customCSS' });
    expect(diagnostics[0]?.message).toMatch(/cannot read file "\.\/nope\.css".*ENOENT/);
  });

  it('keeps a text prop set to null: no custom CSS is not the default empty CSS', () => {
    new Dashboard('none', { header: 'x', customCSS: null });
    new Dashboard('default', { header: 'y' });
    expect(synth().resources.map((r) => r.payload.customCSS)).toEqual([null, '']);
  });
});

describe('other constructs', () => {
  it('dashboard: fully defaulted', () => {
    new Dashboard('status', { header: 'Status', customUrl: 'acme-status' });
    expect(synth().resources[0]?.payload).toEqual({
      ...DASHBOARD_DEFAULTS,
      header: 'Status',
      customUrl: 'acme-status',
    });
  });

  it('status page: cards reference services by logical id or fromId, url lower-cased', () => {
    const api = new StatusPageService('api', { name: 'API' });
    new StatusPage('public', {
      name: 'Acme',
      url: 'Acme',
      cards: [{ name: 'Core', services: [api, StatusPageService.fromId('svc-existing')] }],
    });
    const { resources, diagnostics } = synth();
    expect(diagnostics).toEqual([]);
    const page = resources.find((r) => r.kind === 'StatusPage');
    expect(page?.payload).toMatchObject({
      url: 'acme',
      defaultTheme: 'AUTO',
      description: null,
      cards: [
        { name: 'Core', services: [{ id: { $ref: 'StatusPageService:api' } }, { id: 'svc-existing' }] },
      ],
    });
    expect(page?.dependsOn).toEqual(['StatusPageService:api']);
    expect(resources.find((r) => r.kind === 'StatusPageService')?.payload).toEqual({ name: 'API' });
  });

  it('maintenance window: group tags become names, dates become ISO strings, visibility refs', () => {
    const group = new CheckGroup('g', { name: 'Payments API' });
    const page = new StatusPage('p', { name: 'P', url: 'p' });
    new MaintenanceWindow('upgrade', {
      name: 'Upgrade',
      startsAt: new Date('2026-12-01T10:00:00Z'),
      endsAt: '2026-12-01T12:00:00.000Z',
      tags: ['db', group],
      statusPageVisibility: { enabled: true, statusPages: [page] },
    });
    const { resources, diagnostics } = synth();
    expect(diagnostics).toEqual([]);
    const window = resources.find((r) => r.kind === 'MaintenanceWindow');
    expect(window?.payload).toMatchObject({
      ...MAINTENANCE_WINDOW_DEFAULTS,
      name: 'Upgrade',
      repeatUnit: null,
      startsAt: '2026-12-01T10:00:00.000Z',
      tags: ['db', 'Payments API'],
      statusPageVisibility: {
        enabled: true,
        autoStart: true,
        statusPageIds: [{ $ref: 'StatusPage:p' }],
        serviceIds: [],
      },
    });
    expect(window?.dependsOn).toEqual(['StatusPage:p']);
  });

  it('alert channels: config from props, switches defaulted', () => {
    new EmailAlertChannel('mail', { address: 'ops@example.com', sendDegraded: true });
    new WebhookAlertChannel('hook', { name: 'hook', url: 'https://example.com/hook', method: 'POST' });
    new OpsgenieAlertChannel('og', { name: 'og', apiKey: 'k', region: 'EU', priority: 'P1' });
    const { resources, diagnostics } = synth();
    expect(diagnostics).toEqual([]);
    expect(resources[0]?.payload).toEqual({
      type: 'EMAIL',
      config: { address: 'ops@example.com' },
      sendRecovery: true,
      sendFailure: true,
      sendDegraded: true,
      sslExpiry: false,
      sslExpiryThreshold: 30,
      autoSubscribe: false,
    });
    expect(resources.map((r) => r.payload.type)).toEqual(['EMAIL', 'WEBHOOK', 'OPSGENIE']);
  });
});

describe('requiredEnv', () => {
  it('gives the variable, and when it is unset names it at the prop that needed it, once', () => {
    process.env.MONITOR_TEST_SET_KEY = 'pd-key';
    delete process.env.MONITOR_TEST_UNSET_KEY;
    delete process.env.MONITOR_TEST_UNSET_URL;
    new PagerdutyAlertChannel('set', { serviceKey: requiredEnv('MONITOR_TEST_SET_KEY') });
    new PagerdutyAlertChannel('unset', { serviceKey: requiredEnv('MONITOR_TEST_UNSET_KEY') });
    new SlackAlertChannel('slack', { url: `${requiredEnv('MONITOR_TEST_UNSET_URL')}/hooks` });
    const { resources, diagnostics } = synth();
    expect(resources[0]?.payload.config).toEqual({ serviceKey: 'pd-key' });
    expect(diagnostics.map((d) => [d.logicalId, d.path, d.message])).toEqual([
      ['unset', 'serviceKey', 'environment variable MONITOR_TEST_UNSET_KEY is not set (requiredEnv)'],
      ['slack', 'url', 'environment variable MONITOR_TEST_UNSET_URL is not set (requiredEnv)'],
    ]);
    delete process.env.MONITOR_TEST_SET_KEY;
  });

  it('names a variable read outside any construct at the call', () => {
    delete process.env.MONITOR_TEST_UNSET;
    requiredEnv('MONITOR_TEST_UNSET');
    const { diagnostics } = synth();
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]?.message).toBe('environment variable MONITOR_TEST_UNSET is not set (requiredEnv)');
    expect(diagnostics[0]?.location?.file).toMatch(/constructs\.test\.ts$/);
  });
});

describe('diagnostics', () => {
  it('collects every problem at once, with the prop path and the location of the new call', () => {
    new CheckGroup('bad', {
      name: 'Bad',
      concurrency: 0,
      locations: ['eu-west-1', 'mars-1' as never],
    });
    new EmailAlertChannel('mail', { address: 'not-an-email', sslExpiryThreshold: 31 });
    const { diagnostics } = synth();
    expect(diagnostics.map((d) => [d.construct, d.logicalId, d.path])).toEqual([
      ['CheckGroup', 'bad', 'concurrency'],
      ['CheckGroup', 'bad', 'locations[1]'],
      ['EmailAlertChannel', 'mail', 'address'],
      ['EmailAlertChannel', 'mail', 'sslExpiryThreshold'],
    ]);
    expect(diagnostics[0]?.location?.file).toMatch(/constructs\.test\.ts$/);
    expect(diagnostics[0]?.location?.line).toBeGreaterThan(0);
  });

  it('reports unknown props, even though esbuild does not type-check', () => {
    new CheckGroup('g', { name: 'G', frequncy: 5 } as never);
    new SlackAlertChannel('s', { url: 'https://x.example.com', chanel: '#x' } as never);
    expect(synth().diagnostics.map((d) => [d.path, d.message])).toEqual([
      ['frequncy', 'unknown property "frequncy" of CheckGroup'],
      ['chanel', 'unknown property "chanel" of SlackAlertChannel'],
    ]);
  });

  it('reports duplicate and invalid logical ids, wrong reference types and clashing aliases', () => {
    const group = new CheckGroup('dup', { name: 'A' });
    new CheckGroup('dup', { name: 'B' });
    new CheckGroup('has space', { name: 'C' });
    new CheckGroup('refs', { name: 'D', alertChannels: [group as never] });
    new CheckGroup('renamed', { name: 'E' }, { aliases: ['dup'] });
    new Dashboard('dup', { header: 'same id, other kind: fine' });
    const messages = synth().diagnostics.map((d) => `${d.logicalId} ${d.path}: ${d.message}`);
    expect(messages).toEqual([
      expect.stringMatching(/^dup : duplicate logical id "dup"/),
      expect.stringMatching(/^has space : logical id "has space" is invalid/),
      'refs alertChannels[0]: expected a AlertChannel, got CheckGroup "dup"',
      'renamed aliases: alias "dup" clashes with the logical id of another CheckGroup',
    ]);
  });

  it('reports each key that appears again in a keyed list, nested lists too, at the list', () => {
    const api = new StatusPageService('api', { name: 'API' });
    const web = new StatusPageService('web', { name: 'Web' });
    new StatusPage('page', {
      name: 'P',
      url: 'p',
      cards: [
        { name: 'Core', services: [api, web] },
        { name: 'Edge', services: [web, api, web] },
        {
          name: 'Core',
          services: [api, StatusPageService.fromId('svc-1'), StatusPageService.fromId('svc-1')],
        },
      ],
    });
    new CheckGroup('g', {
      name: 'G',
      environmentVariables: [
        { key: 'A', value: '1' },
        { key: 'B', value: '2' },
        { key: 'A', value: '3' },
      ],
      apiCheckDefaults: {
        headers: [
          { key: 'x', value: '1' },
          { key: 'x', value: '2' },
        ],
      },
    });
    expect(
      synth()
        .diagnostics.filter((d) => d.message.includes('more than once'))
        .map((d) => `${d.logicalId} ${d.path}: ${d.message}`),
    ).toEqual([
      'page cards: name "Core" appears more than once: each must be unique',
      'page cards[1].services: id "web" appears more than once: each must be unique',
      'page cards[2].services: id "svc-1" appears more than once: each must be unique',
      'g apiCheckDefaults.headers: key "x" appears more than once: each must be unique',
      'g environmentVariables: key "A" appears more than once: each must be unique',
    ]);
  });

  it('refuse URLs that would open somewhere unsafe on a public page', () => {
    new Dashboard('board', {
      header: 'B',
      logo: 'ftp://files.example.com/l.png',
      link: 'javascript:alert(1)',
    });
    new StatusPage('page', {
      name: 'P',
      url: 'p',
      cards: [],
      favicon: 'https://cdn.example.com/f.ico',
      redirectTo: 'javascript:alert(1)',
    });
    expect(synth().diagnostics.map((d) => `${d.logicalId} ${d.path}: ${d.message}`)).toEqual([
      'board link: must be an http(s) URL, got "javascript:alert(1)"',
      'board logo: must be an http(s) URL, got "ftp://files.example.com/l.png"',
      'page redirectTo: must be an http(s) URL, got "javascript:alert(1)"',
    ]);
  });

  it('never quote a value the kind marks sensitive, whoever wrote the message', () => {
    const url = 'hooks.slack.com/services/T0/B0/c4n4ry';
    new SlackAlertChannel('slack', { url });
    // Not a credential: a webhook's url is quoted.
    new WebhookAlertChannel('hook', { name: 'Hook', url: 'hooks.example.com/in' });
    // A construct library's own check, quoting the key it got.
    class CheckedPagerduty extends PagerdutyAlertChannel {
      override [SYNTHESIZE](ctx: SynthContext) {
        ctx.problem('serviceKey', `"${this.props.serviceKey}" is not a PagerDuty integration key`);
        return super[SYNTHESIZE](ctx);
      }
    }
    new CheckedPagerduty('pd', { serviceKey: 'c4n4ry-pd' });
    const messages = synth().diagnostics.map((d) => `${d.logicalId} ${d.path}: ${d.message}`);
    expect(messages).toEqual([
      `slack url: must be an http(s) URL, got (sensitive value, ${url.length} characters)`,
      'hook url: must be an http(s) URL, got "hooks.example.com/in"',
      'pd serviceKey: (sensitive value, 9 characters) is not a PagerDuty integration key',
    ]);
  });

  it('registers constructs made by a second copy of the package in the same session', async () => {
    const session = createSession();
    // The built package is a second module instance, as a construct library that bundles its own copy loads.
    const copy = (await import('../dist/index.js')) as unknown as typeof import('./index.js');
    expect(copy.CheckGroup).not.toBe(CheckGroup);
    new copy.CheckGroup('from-copy', { name: 'Copy' });
    new CheckGroup('from-here', {
      name: 'Here',
      alertChannels: [new copy.EmailAlertChannel('m', { address: 'a@b.co' })],
    });
    const { resources, diagnostics } = synth({}, session);
    expect(diagnostics).toEqual([]);
    expect(resources.map((r) => r.logicalId)).toEqual(['from-copy', 'm', 'from-here']);
  });
});

describe('ignoreChanges', () => {
  it('takes the paths the plan prints, keyed list entries included', () => {
    createSession();
    new CheckGroup(
      'g',
      { name: 'G', environmentVariables: [{ key: 'API_URL', value: 'x' }] },
      {
        ignoreChanges: [
          'muted',
          'alertSettings.reminders',
          'environmentVariables[API_URL].value',
          'environmentVariables',
        ],
      },
    );
    const { resources, diagnostics } = synth();
    expect(diagnostics).toEqual([]);
    expect(resources[0]?.options.ignoreChanges).toHaveLength(4);
  });

  it('a path that is not a field of the kind is an error at the construct, with the nearest field', () => {
    createSession();
    new CheckGroup(
      'g',
      { name: 'G' },
      { ignoreChanges: ['mutd', 'alertSettings.reminder', 'tags[prod]', 42 as unknown as string] },
    );
    const { diagnostics } = synth();
    expect(diagnostics.map((d) => [d.path, d.message])).toEqual([
      ['ignoreChanges', 'must be a list of field paths, e.g. ["muted", "alertSettings.reminders"]'],
    ]);
    createSession();
    new CheckGroup('g', { name: 'G' }, { ignoreChanges: ['mutd', 'alertSettings.reminder', 'tags[prod]'] });
    expect(synth().diagnostics.map((d) => [d.path, d.message])).toEqual([
      ['ignoreChanges[0]', '"mutd" is not a field of a check group; did you mean "muted"?'],
      [
        'ignoreChanges[1]',
        '"alertSettings.reminder" is not a field of a check group; did you mean "alertSettings.reminders"?',
      ],
      // Tags are a set, compared whole: its items have no name to ignore one by.
      ['ignoreChanges[2]', '"tags[prod]" is not a field of a check group; did you mean "tags"?'],
    ]);
  });

  it('a secret inside a list entry cannot be ignored: the service masks it, so an update could not keep it', () => {
    createSession();
    new CheckGroup(
      'g',
      {
        name: 'G',
        environmentVariables: [
          { key: 'TOKEN', value: 't', secret: true },
          { key: 'PLAIN', value: 'p' },
        ],
        apiCheckDefaults: { basicAuth: { username: 'ops', password: 'pw' } },
      },
      {
        ignoreChanges: [
          'environmentVariables[TOKEN].value',
          'apiCheckDefaults.basicAuth',
          'environmentVariables[PLAIN].value',
        ],
      },
    );
    const messages = synth().diagnostics.map((d) => d.message);
    expect(messages).toHaveLength(2);
    expect(messages[0]).toContain('holds a secret inside environmentVariables');
    expect(messages[1]).toContain('holds a secret inside apiCheckDefaults');
  });
});

describe('synth with payloads validated before', () => {
  /** Remembers payloads by their JSON; `valid` says which it claims passed already. */
  const remembering = (valid: (json: string) => boolean) => {
    const added: string[] = [];
    return {
      added,
      keyOf: (kind: string, payload: Record<string, unknown>) => `${kind} ${JSON.stringify(payload)}`,
      has: (key: string) => valid(key),
      add: (key: string) => {
        added.push(key);
      },
    };
  };

  it('does not check a payload found there again, and adds each that passes', () => {
    new CheckGroup('group', { name: 'Group', concurrency: 0 });
    new Dashboard('board', { header: 'Board' });
    const trusting = remembering((key) => key.startsWith('CheckGroup'));
    expect(synth({ validated: trusting }).diagnostics).toEqual([]);
    expect(trusting.added).toEqual([expect.stringMatching(/^Dashboard /)]);

    const doubting = remembering(() => false);
    expect(synth({ validated: doubting }).diagnostics.map((d) => d.path)).toEqual(['concurrency']);
    expect(doubting.added).toEqual([expect.stringMatching(/^Dashboard /)]);
  });
});

describe('policyExceptions', () => {
  it('keeps each exception with its policy and reason, out of the payload', () => {
    createSession();
    new CheckGroup(
      'canary',
      { name: 'Canary' },
      { policyExceptions: [{ policy: 'group-without-alert-channel', reason: '  read on the dashboard  ' }] },
    );
    const { resources, diagnostics } = synth();
    expect(diagnostics).toEqual([]);
    expect(resources[0]?.options.policyExceptions).toEqual([
      { policy: 'group-without-alert-channel', reason: 'read on the dashboard' },
    ]);
    expect(resources[0]?.payload).not.toHaveProperty('policyExceptions');
  });

  it('an exception without a reason, or naming no policy, is an error at it; the good ones are kept', () => {
    createSession();
    new CheckGroup(
      'g',
      { name: 'G' },
      {
        policyExceptions: [
          { policy: 'group-without-alert-channel' } as never,
          { policy: 'group-muted-without-comment', reason: ' ' },
          { reason: 'no policy' } as never,
          { policy: 'maintenance-silences-all-alerts', reason: 'fine' },
        ],
      },
    );
    new CheckGroup('h', { name: 'H' }, { policyExceptions: 'all' as never });
    const { resources, diagnostics } = synth();
    expect(diagnostics.map((d) => [d.logicalId, d.severity, d.path, d.message])).toEqual([
      [
        'g',
        'error',
        'policyExceptions[0]',
        'the exception to "group-without-alert-channel" has no reason: say why the policy does not apply to this construct (reason: \'…\')',
      ],
      [
        'g',
        'error',
        'policyExceptions[1]',
        'the exception to "group-muted-without-comment" has no reason: say why the policy does not apply to this construct (reason: \'…\')',
      ],
      [
        'g',
        'error',
        'policyExceptions[2]',
        "must name the policy it waives: { policy: 'policy-name', reason: '…' }",
      ],
      [
        'h',
        'error',
        'policyExceptions',
        "must be a list of { policy, reason }, e.g. [{ policy: 'group-without-alert-channel', reason: 'why it does not apply here' }]",
      ],
    ]);
    expect(resources[0]?.options.policyExceptions).toEqual([
      { policy: 'maintenance-silences-all-alerts', reason: 'fine' },
    ]);
  });
});

describe('construct options, the third argument', () => {
  it('are taken from the third argument, never from the props, and kept out of the payload', () => {
    new CheckGroup(
      'payments',
      { name: 'Payments' },
      {
        protect: true,
        aliases: ['payments-old'],
        adopt: true,
        ignoreChanges: ['muted'],
        policyExceptions: [{ policy: 'group-without-alert-channel', reason: 'a canary' }],
      },
    );
    new EmailAlertChannel('mail', { address: 'a@b.co' }, { protect: true });
    const { resources, diagnostics } = synth();
    expect(diagnostics).toEqual([]);
    expect(resources.map((r) => [r.logicalId, r.options])).toEqual([
      [
        'payments',
        {
          protect: true,
          aliases: ['payments-old'],
          adopt: true,
          ignoreChanges: ['muted'],
          policyExceptions: [{ policy: 'group-without-alert-channel', reason: 'a canary' }],
        },
      ],
      ['mail', { protect: true, aliases: [], adopt: false, ignoreChanges: [], policyExceptions: [] }],
    ]);
    expect(resources[1]?.payload.config).toEqual({ address: 'a@b.co' });
  });

  it('an option written in the props is an error at it that says where it moved, and is not taken', () => {
    new CheckGroup('api', { name: 'API', protect: true, ignoreChanges: ['muted'] } as never);
    new SlackAlertChannel('slack', { url: 'https://hooks.slack.com/x', adopt: true } as never, {
      aliases: ['old'],
    });
    const { resources, diagnostics } = synth();
    expect(diagnostics.map((d) => [d.logicalId, d.severity, d.path, d.pathIn, d.message, d.hint])).toEqual([
      [
        'api',
        'error',
        'ignoreChanges',
        undefined,
        'ignoreChanges is an option of the construct, not a prop: options are the third argument of new',
        "move it to the third argument: new CheckGroup('api', { … }, { protect: true, ignoreChanges: ['muted'] })",
      ],
      [
        'api',
        'error',
        'protect',
        undefined,
        'protect is an option of the construct, not a prop: options are the third argument of new',
        "move it to the third argument: new CheckGroup('api', { … }, { protect: true, ignoreChanges: ['muted'] })",
      ],
      [
        'slack',
        'error',
        'adopt',
        undefined,
        'adopt is an option of the construct, not a prop: options are the third argument of new',
        "move it to the third argument: new SlackAlertChannel('slack', { … }, { adopt: true })",
      ],
    ]);
    // Neither taken as an option nor sent as a prop.
    expect(resources.map((r) => r.options)).toEqual([
      { protect: false, aliases: [], adopt: false, ignoreChanges: [], policyExceptions: [] },
      { protect: false, aliases: ['old'], adopt: false, ignoreChanges: [], policyExceptions: [] },
    ]);
    expect(resources[0]?.payload).not.toHaveProperty('protect');
    expect(resources[1]?.payload.config).toEqual({ url: 'https://hooks.slack.com/x' });
  });

  it('an unknown option is an error in the options, with the nearest option', () => {
    new CheckGroup('g', { name: 'G' }, { protcet: true, muted: true } as never);
    expect(synth().diagnostics.map((d) => [d.path, d.pathIn, d.message])).toEqual([
      [
        'muted',
        'options',
        'unknown option "muted": the options are protect, aliases, adopt, ignoreChanges and policyExceptions (props go in the second argument)',
      ],
      [
        'protcet',
        'options',
        'unknown option "protcet"; did you mean "protect"? The options are protect, aliases, adopt, ignoreChanges and policyExceptions (props go in the second argument)',
      ],
    ]);
  });

  it('problems of an option are placed in the options', () => {
    new CheckGroup('dup', { name: 'A' });
    new CheckGroup('g', { name: 'G' }, { aliases: ['dup'], ignoreChanges: ['mutd'] });
    new CheckGroup('h', { name: 'H' }, { policyExceptions: 'all' as never });
    expect(synth().diagnostics.map((d) => [d.logicalId, d.path, d.pathIn])).toEqual([
      ['g', 'aliases', 'options'],
      ['g', 'ignoreChanges[0]', 'options'],
      ['h', 'policyExceptions', 'options'],
    ]);
  });
});
