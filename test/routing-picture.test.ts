import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { findChromium, renderedDom } from '../scripts/chromium.mjs';
import { execFileInTest } from './support/children.js';
import { cleanup, monitor, writeProject } from './support/harness.js';

/**
 * `monitor routes --format mermaid` drawn by Mermaid itself (issue 49 §4): the real output of the
 * built CLI, rendered by the `mermaid` package in headless Chromium (Debian's `chromium`) on a local
 * page, and the SVG it draws read back. In CI it must run (.ci/run installs Chromium); elsewhere
 * it is skipped, saying why, when Chromium is missing.
 */

const MERMAID = createRequire(import.meta.url).resolve('mermaid/dist/mermaid.min.js');
const IN_CI = (process.env.CI ?? '') !== '' && process.env.CI !== 'false';

const CODE = `import { CheckGroup, EmailAlertChannel, MaintenanceWindow, SlackAlertChannel } from '@monitor/constructs';
const mail = new EmailAlertChannel('payments-oncall', { address: 'payments-oncall@acme.example', sslExpiry: true });
const slack = new SlackAlertChannel('payments-slack', {
  url: 'https://hooks.slack.example/services/T0/B0/x',
  channel: '#payments <alerts> & "ops"',
});
new CheckGroup('payments-api', { name: 'Payments API', tags: ['payments'], alertChannels: [mail, slack] });
new CheckGroup('checkout', { name: '<b>Checkout</b> "v2" [beta] %% #1', alertChannels: [slack] });
new CheckGroup('search', { name: 'Search' });
new MaintenanceWindow('db-upgrade', {
  name: 'Database upgrade',
  startsAt: '2027-01-10T02:00:00Z',
  endsAt: '2027-01-10T04:00:00Z',
  silenceAlertsTags: ['payments'],
});
`;

/** A page that renders `chart` with Mermaid and puts the SVG (or the error) in the DOM. */
function page(chart: string): string {
  // In a <script>, only `</` could end it early: JSON with `<` escaped cannot.
  const text = JSON.stringify(chart).replace(/</g, '\\u003c');
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>routes</title>
<script src="${pathToFileURL(MERMAID).href}"></script></head>
<body style="margin:0;background:#fff">
<div id="out"></div><pre id="error"></pre>
<script>
mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });
mermaid.render('picture', ${text}).then(
  ({ svg }) => { document.getElementById('out').innerHTML = svg; },
  (e) => { document.getElementById('error').textContent = 'mermaid: ' + (e && e.message ? e.message : String(e)); },
);
</script></body></html>
`;
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) cleanup(dir);
});

const decode = (html: string) =>
  html
    .replace(/<br\s*\/?>/g, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

describe('the picture of who gets paged, in a browser', () => {
  it('renders routes --format mermaid with Mermaid in headless Chromium: every node and edge, account text as text', async (ctx) => {
    const chromium = findChromium();
    if (chromium === undefined) {
      if (IN_CI)
        throw new Error(
          'Chromium is not installed: CI needs it for this test (.ci/run installs Debian’s chromium)',
        );
      ctx.skip(
        'Chromium is not installed (apt-get install chromium): the picture is not rendered in a browser here',
      );
      return;
    }
    const dir = writeProject({ 'monitors/routes.monitor.ts': CODE }, 'picture');
    dirs.push(dir);
    const r = await monitor(['routes', '--format', 'mermaid'], { cwd: dir });
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    const chart = r.stdout;
    const declared = [...chart.matchAll(/^ {2}(\w+)[[({]/gm)].map((m) => m[1]);
    const edges = chart.split('\n').filter((l) => / (-->|==>|-\.->)/.test(l));
    expect(declared).toEqual(['g0', 'g0e0', 'c0', 'g1', 'g1e0', 'g1e1', 'c1', 'g2', 'g2e0', 'nobody']);

    const html = join(dir, 'picture.html');
    writeFileSync(html, page(chart));
    const dom = await renderedDom(chromium, html, { execFile: execFileInTest });
    expect(decode(/<pre id="error">([\s\S]*?)<\/pre>/.exec(dom)?.[1] ?? '')).toBe('');
    const svg = /<svg[\s\S]*<\/svg>/.exec(dom)?.[0] ?? '';
    expect(svg).not.toBe('');

    // A node of the SVG for each node of the chart, labelled as the chart says.
    const nodes = new Map(
      [
        ...svg.matchAll(
          /<g class="node [^"]*" id="picture-flowchart-(\w+)-\d+"[\s\S]*?<span[^>]*\bclass="nodeLabel"[^>]*>([\s\S]*?)<\/span>/g,
        ),
      ].map((m) => [m[1], decode(m[2] as string)]),
    );
    expect([...nodes.keys()].sort()).toEqual([...declared].sort());
    expect(nodes.get('g0')).toBe('checkout\n<b>Checkout</b> "v2" [beta] %% #1');
    expect(nodes.get('c0')).toBe('Slack #payments <alerts> & "ops"\npayments-slack');
    expect(nodes.get('g1')).toBe('payments-api\nPayments API');
    expect(nodes.get('g1e1')).toBe('SSL expiry');
    expect(nodes.get('nobody')).toBe('no one');
    expect(nodes.get('g2')).toBe('search\nSearch');
    // The account's markup is shown, never made: no <b> in the drawing.
    expect(svg).not.toMatch(/<b>/);
    // An edge for each edge of the chart, the window that silences payments-api on its edges.
    expect([...svg.matchAll(/<path [^>]*class="[^"]*flowchart-link/g)]).toHaveLength(edges.length);
    const labels = [...svg.matchAll(/<span[^>]*\bclass="edgeLabel"[^>]*>([\s\S]*?)<\/span>/g)].map((m) =>
      decode(m[1] as string),
    );
    expect(labels.filter((l) => l !== '')).toEqual([
      'silenced by Database upgrade: 2027-01-10 02:00–04:00 UTC',
      'silenced by Database upgrade: 2027-01-10 02:00–04:00 UTC',
    ]);
  });
});
