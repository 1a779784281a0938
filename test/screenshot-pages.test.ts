import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { styleText } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  commentHtml,
  commentPage,
  emojiAsImages,
} from '../packages/cli/scripts/screenshots/comment-html.mjs';
import { ansiToHtml, terminalPage } from '../packages/cli/scripts/screenshots/terminal-html.mjs';
import { writeFiles } from './support/harness.js';
import { IMPORTS, projectsUnderTest } from './support/projects.js';

/**
 * The parts of the docs screenshots (packages/cli/scripts/screenshots.mjs, issue 46 §4) that need no
 * browser: what a terminal shows of a pty's bytes, as HTML; a pull-request comment's markdown as
 * GitHub renders it; the pages Chromium is given; and the script's skip without Chromium.
 */

const SCRIPT = fileURLToPath(new URL('../packages/cli/scripts/screenshots.mjs', import.meta.url));

/** Colours as the CLI paints them (`paint` in cli/src/io.ts): node:util's styleText. */
const paint = (format: Parameters<typeof styleText>[0], text: string) =>
  styleText(format, text, { validateStream: false });

describe('ansiToHtml: what a terminal shows', () => {
  it('turns the colours, bold and dim the CLI paints into spans, and plain text stays bare', () => {
    const line = `  ${paint('red', '✗')} Charge card ${paint('dim', '(CheckGroup:payments-api)')}: broke with this deploy\n${paint('bold', 'Verification:')}\n`;
    expect(ansiToHtml(line, { columns: 80 })).toBe(
      '  <span class="fg-red">✗</span> Charge card <span class="dim">(CheckGroup:payments-api)</span>: broke with this deploy\n<span class="bold">Verification:</span>',
    );
  });

  it('keeps styles across sequences until they are reset, and combines them', () => {
    expect(ansiToHtml('\u001b[1m\u001b[32mok\u001b[39m still bold\u001b[0m plain', { columns: 80 })).toBe(
      '<span class="fg-green bold">ok</span><span class="bold"> still bold</span> plain',
    );
    expect(ansiToHtml('\u001b[2mdim\u001b[1m and bold\u001b[22m none', { columns: 80 })).toBe(
      '<span class="dim">dim</span><span class="bold dim"> and bold</span> none',
    );
    expect(ansiToHtml('\u001b[91mbright\u001b[m', { columns: 80 })).toBe(
      '<span class="fg-bright-red">bright</span>',
    );
  });

  it('shows the last state of a progress line redrawn with \\r and erase-line, as the pty delivers it (\\r\\n)', () => {
    const bytes =
      '\u001b[2mLoading the project…\u001b[22m\r\u001b[Kmonitor deploy: acme\r\n\r\n\r\u001b[K[1/2] 3.4 ops/s  + AlertChannel a\r\u001b[K[2/2] 5.8 ops/s  ~ CheckGroup b\r\nVerifying\r\n';
    expect(ansiToHtml(bytes, { columns: 80 })).toBe(
      'monitor deploy: acme\n\n[2/2] 5.8 ops/s  ~ CheckGroup b\nVerifying',
    );
  });

  it('overwrites in place after \\r without erasing the rest, and erases to, from or all of a line', () => {
    expect(ansiToHtml('abcdef\rXY\n', { columns: 80 })).toBe('XYcdef');
    expect(ansiToHtml('abcdef\rabc\u001b[1K\n', { columns: 80 })).toBe('    ef');
    expect(ansiToHtml('abcdef\u001b[2Kxy\n', { columns: 80 })).toBe('      xy');
  });

  it('wraps at the last column as a terminal does, with no empty line after a full one', () => {
    expect(ansiToHtml('abcdefghij', { columns: 4 })).toBe('abcd\nefgh\nij');
    expect(ansiToHtml('abcd\r\nef', { columns: 4 })).toBe('abcd\nef');
    expect(ansiToHtml('a\tb', { columns: 80 })).toBe('a       b');
  });

  it("escapes the account's text, and drops sequences a picture does not show", () => {
    expect(ansiToHtml('<b>"Pay" & co</b>', { columns: 80 })).toBe(
      '&lt;b&gt;&quot;Pay&quot; &amp; co&lt;/b&gt;',
    );
    expect(ansiToHtml('\u001b[?25l\u001b]0;a title\u0007shown\u001b[?25h\u0007', { columns: 80 })).toBe(
      'shown',
    );
    // 256-colour and RGB arguments are not codes: 196 is not read as a code, 1 after RGB is bold.
    expect(ansiToHtml('\u001b[38;5;196mx\u001b[0m \u001b[38;2;255;0;0;1my', { columns: 80 })).toBe(
      'x <span class="bold">y</span>',
    );
  });

  it('drops trailing blank lines and trailing spaces', () => {
    expect(ansiToHtml('done   \r\n\r\n\r\n', { columns: 80 })).toBe('done');
  });
});

describe('terminalPage', () => {
  it('shows the command at a prompt, above the screen, in a window as wide as the columns', () => {
    const html = terminalPage({
      command: 'monitor deploy --yes --verify',
      screenHtml: '<span class="fg-red">✗</span> x',
      columns: 136,
    });
    expect(html).toContain(
      '<pre><span class="prompt">$</span> monitor deploy --yes --verify\n<span class="fg-red">✗</span> x</pre>',
    );
    expect(html).toContain('pre { width: 136ch; }');
    expect(html).toContain('id="content"');
    expect(html).toContain('document.body.dataset.ready');
  });
});

describe('commentHtml: the comment as GitHub renders it', () => {
  it('renders tables, inline HTML and details, and opens them on request', () => {
    const md =
      '#### ✓ Verification\n\n| outcome | check |\n| --- | --- |\n| ✗ broke | <code>+</code> Charge card |\n\n<details>\n<summary>Done (2)</summary>\n\n- one\n\n</details>\n';
    const closed = commentHtml(md);
    expect(closed).toContain('<th>outcome</th>');
    expect(closed).toContain('<td><code>+</code> Charge card</td>');
    expect(closed).toContain('<details>\n<summary>Done (2)</summary>');
    expect(closed).toContain('<li>one</li>');
    expect(commentHtml(md, { openDetails: true })).toContain('<details open>\n<summary>Done (2)</summary>');
  });

  it('draws alerts as GitHub does, without their marker', () => {
    const html = commentHtml('> [!WARNING]\n> **No route for failures:** once this is deployed\n\ntext\n');
    expect(html).toContain(
      '<div class="markdown-alert markdown-alert-warning"><p class="markdown-alert-title">Warning</p>\n<p><strong>No route for failures:</strong> once this is deployed</p>',
    );
    expect(html).not.toContain('[!WARNING]');
    expect(commentHtml('> quoted\n')).toBe('<blockquote>\n<p>quoted</p>\n</blockquote>\n');
  });

  it('colours diff lines, and leaves Mermaid sources as text for Mermaid, escaped', () => {
    const html = commentHtml(
      '```diff\n- locations: ["eu-west-1"]\n+ locations: ["eu-west-1","ap-south-1"]\n  (18 unchanged)\n```\n\n```mermaid\nflowchart LR\n  g0["a<br/>❌ b"] ==> c0\n```\n',
    );
    expect(html).toContain(
      '<span class="diff-deletion">- locations: [&quot;eu-west-1&quot;]</span>\n<span class="diff-addition">+ locations: [&quot;eu-west-1&quot;,&quot;ap-south-1&quot;]</span>\n  (18 unchanged)',
    );
    expect(html).toContain(
      '<pre class="mermaid">flowchart LR\n  g0[&quot;a&lt;br/&gt;❌ b&quot;] ==&gt; c0</pre>',
    );
  });

  it('draws the emoji monitor writes as images, and leaves text symbols as text', () => {
    const html = emojiAsImages('<h4>❌ Verification</h4><li>✅ ok ⏳ wait ⚠️ unrouted ⚠ text ✓ ✗</li>');
    expect(html.match(/<img class="emoji" alt="([^"]+)"/g)).toEqual([
      '<img class="emoji" alt="❌"',
      '<img class="emoji" alt="✅"',
      '<img class="emoji" alt="⏳"',
      '<img class="emoji" alt="⚠️"',
    ]);
    expect(html).toContain('⚠ text ✓ ✗</li>');
    expect(html).toContain('src="data:image/svg+xml,');
  });
});

describe('commentPage', () => {
  it('loads Mermaid only for a comment with Mermaid blocks, and escapes the header', () => {
    const plain = commentPage({ header: 'Comment <on> the PR', bodyHtml: '<p>x</p>\n' });
    expect(plain).toContain('<div class="comment-header">Comment &lt;on&gt; the PR</div>');
    expect(plain).not.toContain('<script src=');
    expect(plain).not.toContain('mermaid.run');
    const drawn = commentPage({
      header: 'plan',
      bodyHtml: '<pre class="mermaid">flowchart LR</pre>\n',
      mermaidUrl: 'file:///m/mermaid.min.js',
    });
    expect(drawn).toContain('<script src="file:///m/mermaid.min.js"></script>');
    expect(drawn).toContain("mermaid.run({ querySelector: 'pre.mermaid' })");
    expect(() => commentPage({ header: 'plan', bodyHtml: '<pre class="mermaid">x</pre>' })).toThrow(
      'the comment has Mermaid blocks: give mermaidUrl',
    );
  });
});

const setup = projectsUnderTest();

describe("the real plan comment of a routing change, as the screenshot's page holds it", () => {
  it('has the alert, the routing section, the Mermaid picture and the resources', async () => {
    const { dir, run } = await setup({
      'monitors/groups.monitor.ts': `${IMPORTS}const mail = new EmailAlertChannel('oncall', { address: 'oncall@acme.example' });
new CheckGroup('payments-api', { name: 'Payments API', alertChannels: [mail] });
`,
    });
    expect((await run('deploy', '--yes')).code).toBe(0);
    writeFiles(dir, {
      'monitors/groups.monitor.ts': `import { CheckGroup, SlackAlertChannel } from '@monitor/constructs';
const slack = new SlackAlertChannel('payments-slack', { url: 'https://hooks.slack.example/services/T0/B0/x', channel: '#payments' });
new CheckGroup('payments-api', { name: 'Payments API', alertChannels: [slack] });
new CheckGroup('search', { name: 'Search <beta>' });
`,
    });
    const md = await run('diff', '--format', 'markdown');
    expect(md.code, md.stderr).toBe(0);
    const html = commentHtml(md.stdout, { openDetails: true });
    expect(html).toContain('<div class="markdown-alert markdown-alert-warning">');
    expect(html).not.toContain('[!WARNING]');
    expect(html).toMatch(/<h4>Routing: who gets paged changes for 2 groups<\/h4>/);
    expect(html).toMatch(/<pre class="mermaid">flowchart LR\n/);
    expect(html).toContain('<details open>');
    expect(html).toContain('<span class="diff-addition">');
    // The account's text stays text: the group's name is escaped, nowhere a tag.
    expect(html).not.toContain('<beta>');
  });
});

describe('screenshots.mjs without Chromium', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('says what is missing and exits 0, writing nothing', () => {
    // A PATH with no programs on it: no chromium, no script (node is run by its full path).
    const empty = mkdtempSync(join(tmpdir(), 'monitor-no-chromium-'));
    dirs.push(empty);
    const r = spawnSync(process.execPath, [SCRIPT], { env: { PATH: empty, HOME: empty }, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      "screenshots skipped: no Chromium ($CHROMIUM, or chromium on the PATH) and no util-linux's script; docs/images/ left as they are\n",
    );
  });
});
