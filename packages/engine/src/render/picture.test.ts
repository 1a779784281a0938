import {
  CheckGroup,
  createSession,
  EmailAlertChannel,
  MaintenanceWindow,
  PagerdutyAlertChannel,
  SlackAlertChannel,
  synth,
} from '@monitor/constructs';
import { beforeEach, describe, expect, it } from 'vitest';
import { picturedRoutes, routePicture } from '../routing/picture.js';
import { type GroupRoute, routesOf } from '../routing/routes.js';
import { worldFromCode } from '../routing/world.js';
import { HOSTILE_TEXT } from '../test-support/hostile-text.js';
import { renderRoutesDot } from './dot.js';
import { renderRoutesMermaid } from './mermaid.js';

const OPTIONS = { now: new Date('2026-11-24T12:00:00Z'), timeZone: 'UTC' };

function routes(): GroupRoute[] {
  const { resources, diagnostics } = synth();
  expect(diagnostics).toEqual([]);
  return routesOf(worldFromCode(resources), OPTIONS);
}

beforeEach(() => {
  createSession();
});

function payments() {
  const oncall = new EmailAlertChannel('payments-oncall', {
    address: 'oncall@acme.example',
    sslExpiry: true,
  });
  const slack = new SlackAlertChannel('payments-slack', {
    url: 'https://hooks.example/x',
    channel: '#payments',
  });
  new CheckGroup('payments-api', {
    name: 'Payments API',
    tags: ['payments'],
    alertChannels: [oncall, slack],
  });
  new CheckGroup('search', { name: 'Search' });
  new MaintenanceWindow('db-upgrade', {
    name: 'Database upgrade',
    startsAt: '2027-01-10T02:00:00Z',
    endsAt: '2027-01-10T04:00:00Z',
    silenceAlertsTags: ['payments'],
  });
}

describe('the picture of who gets paged', () => {
  it('draws groups → events → channels, failures with no channel to no one, windows on the group’s edges', () => {
    payments();
    expect(renderRoutesMermaid(picturedRoutes(routes()))).toBe(
      [
        'flowchart LR',
        '  classDef group fill:#ddf4ff,stroke:#0969da,color:#0a3069',
        '  classDef unrouted fill:#ffebe9,stroke:#cf222e,color:#82071e',
        '  classDef event fill:#f6f8fa,stroke:#8c959f,color:#24292f',
        '  classDef channel fill:#dafbe1,stroke:#1a7f37,color:#044f1e',
        '  classDef nobody fill:#ffebe9,stroke:#cf222e,color:#82071e',
        '  classDef more fill:#ffffff,stroke:#8c959f,stroke-dasharray:4 3,color:#57606a',
        '  g0["payments-api<br/>Payments API"]:::group',
        '  g0e0(["failures, recoveries"]):::event',
        '  g0e1(["SSL expiry"]):::event',
        '  c0("Email oncall#64;acme.example<br/>payments-oncall"):::channel',
        '  c1("Slack #35;payments<br/>payments-slack"):::channel',
        '  g1["search<br/>Search"]:::unrouted',
        '  g1e0(["failures"]):::event',
        '  nobody{{"no one"}}:::nobody',
        '  g0 -->|"silenced by Database upgrade: 2027-01-10 02:00–04:00 UTC"| g0e0',
        '  g0e0 --> c0',
        '  g0e0 --> c1',
        '  g0 -->|"silenced by Database upgrade: 2027-01-10 02:00–04:00 UTC"| g0e1',
        '  g0e1 --> c0',
        '  g1 --> g1e0',
        '  g1e0 --> nobody',
      ].join('\n'),
    );
  });

  it('draws the same as a Graphviz digraph', () => {
    payments();
    const dot = renderRoutesDot(picturedRoutes(routes()));
    expect(dot.split('\n').slice(0, 6)).toEqual([
      'digraph routes {',
      '  rankdir=LR;',
      '  node [fontname="Helvetica", fontsize=11, style=filled];',
      '  edge [fontname="Helvetica", fontsize=9];',
      '  g0 [label="payments-api\\nPayments API", shape=box, fillcolor="#ddf4ff", color="#0969da"];',
      '  g0e0 [label="failures, recoveries", shape=box, style="rounded,filled", fillcolor="#f6f8fa", color="#8c959f"];',
    ]);
    expect(dot).toContain('  g0 -> g0e0 [label="silenced by Database upgrade: 2027-01-10 02:00–04:00 UTC"];');
    expect(dot).toContain('  g1e0 -> nobody;');
    expect(dot.endsWith('\n}')).toBe(true);
  });

  it('stays within 40 nodes: the groups past it are one “and N more groups” node', () => {
    for (let i = 0; i < 30; i++) {
      const channel = new PagerdutyAlertChannel(`pd-${i}`, { serviceKey: 'k', serviceName: `Team ${i}` });
      new CheckGroup(`group-${String(i).padStart(2, '0')}`, { name: `Group ${i}`, alertChannels: [channel] });
    }
    const picture = picturedRoutes(routes());
    // Each group: its node, one event (failures, recoveries), its channel.
    expect(picture.nodes).toHaveLength(40);
    expect(picture.moreGroups).toBe(17);
    expect(picture.nodes.at(-1)).toEqual({ id: 'more', kind: 'more', lines: ['and 17 more groups'] });
    expect(renderRoutesMermaid(picture)).toContain('  more["and 17 more groups"]:::more');
    expect(renderRoutesDot(picture)).toContain('more [label="and 17 more groups"');
  });

  it('draws a first group too large for the picture with the channels that fit, and counts the rest', () => {
    const channels = Array.from(
      { length: 60 },
      (_, i) => new EmailAlertChannel(`mail-${i}`, { address: `ops${i}@acme.example` }),
    );
    new CheckGroup('big', { name: 'Big', alertChannels: channels });
    new CheckGroup('small', { name: 'Small', alertChannels: [channels[0] as EmailAlertChannel] });
    const picture = picturedRoutes(routes());
    // The group, its event, 36 channels, the count of the others, and the group left out.
    expect(picture.nodes).toHaveLength(40);
    expect(picture.nodes.find((n) => n.id === 'g0more')?.lines).toEqual(['and 24 more channels']);
    expect(picture.moreGroups).toBe(1);
    // No edge to a node that is not drawn.
    const ids = new Set(picture.nodes.map((n) => n.id));
    expect(picture.edges.every((e) => ids.has(e.from) && ids.has(e.to))).toBe(true);
  });

  it('escapes account text: no label ends early, starts a comment, or becomes HTML or markdown', () => {
    HOSTILE_TEXT.forEach((name, i) => {
      new CheckGroup(`g${i}`, {
        name: `${name} " ]) %% end`,
        alertChannels: [new SlackAlertChannel(`s${i}`, { url: 'https://hooks.example/x', channel: name })],
      });
    });
    const picture = picturedRoutes(routes(), 1000);
    const mermaid = renderRoutesMermaid(picture);
    for (const line of mermaid.split('\n').slice(7)) {
      // One label per node line (two quotes), one or none per edge; in it, only the characters
      // Mermaid shows as they are, entity codes and line breaks.
      const labels = [...line.matchAll(/"([^"]*)"/g)].map((m) => m[1] as string);
      expect(line.split('"').length - 1).toBe(labels.length * 2);
      for (const text of labels)
        expect(text.replace(/#\d+;|<br\/>/g, '')).toMatch(/^[\p{L}\p{N} .,:_\-/()'!?+=…–—“”‘’→]*$/u);
    }
    expect(mermaid).not.toMatch(/%%|`|<(?!br\/>)/);
    const dot = renderRoutesDot(picture);
    for (const line of dot.split('\n').slice(4, -1)) {
      // Every quote but those that open and close a value is escaped.
      const unescaped = line.replace(/\\\\|\\"/g, '').match(/"/g) ?? [];
      expect(unescaped.length % 2).toBe(0);
      expect([...line].some((c) => (c.codePointAt(0) ?? 0) < 0x20 || c === '\u202e')).toBe(false);
    }
    expect(dot).toContain('[label="g3\\n<img src=x onerror=alert(1)> <b>bold</b> \\" ]) %% end", shape=box');
  });

  it('in a plan, draws the edges the plan adds thick and green, and those it removes dotted and red', () => {
    payments();
    const before = routes();
    createSession();
    const slack = new SlackAlertChannel('payments-slack', {
      url: 'https://hooks.example/x',
      channel: '#payments',
    });
    const pd = new PagerdutyAlertChannel('pagerduty-oncall', { serviceKey: 'k', serviceName: 'Payments' });
    new CheckGroup('payments-api', { name: 'Payments API', alertChannels: [slack, pd] });
    new CheckGroup('checkout', { name: 'Checkout', alertChannels: [pd] });
    const after = routes();
    const find = (list: GroupRoute[], id: string) => list.find((r) => r.logicalId === id) ?? null;
    const picture = routePicture([
      { before: null, after: find(after, 'checkout') as GroupRoute },
      { before: find(before, 'payments-api'), after: find(after, 'payments-api') as GroupRoute },
    ]);
    const edges = picture.edges.map((e) => `${e.from} ${e.change} ${e.to} ${e.lines.join(' / ')}`.trim());
    expect(edges).toEqual([
      'g0 added g0e0',
      'g0e0 added c0',
      'g1 same g1e0 no longer silenced by Database upgrade',
      'g1e0 removed c1',
      'g1e0 same c2',
      'g1e0 added c0',
      'g1 removed g1e1 no longer silenced by Database upgrade',
      'g1e1 removed c1',
    ]);
    expect(picture.nodes.find((n) => n.id === 'g0')?.lines).toEqual(['checkout', 'Checkout', 'new']);
    const mermaid = renderRoutesMermaid(picture);
    expect(mermaid).toContain('  g0 ==> g0e0');
    expect(mermaid).toContain('  g1e0 -.-> c1');
    expect(mermaid).toContain('  g1 -.->|"no longer silenced by Database upgrade"| g1e1');
    expect(mermaid).toContain('  linkStyle 0,1,5 stroke:#1a7f37,stroke-width:3px');
    expect(mermaid).toContain('  linkStyle 3,6,7 stroke:#cf222e,stroke-width:2px,stroke-dasharray:6 4');
  });

  it('marks a window the plan adds on the group’s edges, however long its name and schedule', () => {
    const group = () => {
      const pd = new PagerdutyAlertChannel('oncall', { serviceKey: 'k' });
      new CheckGroup('checkout', { name: 'Checkout', tags: ['prod'], alertChannels: [pd] });
    };
    group();
    const [before] = routes();
    createSession();
    group();
    new MaintenanceWindow('nightly-deploys', {
      name: 'Nightly deploys of the payments, checkout and search services',
      startsAt: '2027-01-04T03:00:00+01:00',
      endsAt: '2027-01-04T03:30:00+01:00',
      timezone: 'Europe/Amsterdam',
      repeatUnit: 'DAY',
      silenceAlertsTags: ['prod'],
    });
    const [after] = routes();
    const picture = routePicture([{ before: before as GroupRoute, after: after as GroupRoute }]);
    expect(picture.edges[0]?.lines).toEqual([
      'silenced by Nightly deploys of the payments, checkout and search services: 2027-01-04 03:00–03:30 E… (new)',
    ]);
    expect(picturedRoutes([after as GroupRoute]).edges[0]?.lines).toEqual([
      'silenced by Nightly deploys of the payments, checkout and search services: 2027-01-04 03:00–03:30 E…',
    ]);
  });
});
