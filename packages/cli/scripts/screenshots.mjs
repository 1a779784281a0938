// docs/images/: what monitor gives, as a newcomer sees it before installing it. From the real
// built CLI against `monitor emulator` (screenshots/scenario.mjs), in a project whose change moves
// a group to a new location and a new alert channel, where one of its checks then fails:
//   - pr-plan-comment.png: the pull-request comment of `monitor diff --format markdown`, the
//     routing change drawn by Mermaid, rendered as GitHub renders it (screenshots/comment-html.mjs);
//   - pr-deploy-comment.png: the comment of `monitor deploy --verify --comment` on the merged pull
//     request, with the verification failure;
//   - deploy-verify-terminal.png: `monitor deploy --yes --verify` in a terminal (captured through
//     a pty, screenshots/terminal-html.mjs), failing with exit 8.
// Each page is screenshotted by headless Chromium (scripts/chromium.mjs). `npm run docs` runs
// this after references.mjs; without Chromium (or util-linux's `script`) it says so and writes
// nothing.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { findChromium, onPath, screenshot } from '../../../scripts/chromium.mjs';
import { commentHtml, commentPage } from './screenshots/comment-html.mjs';
import { changedProject, expectExit } from './screenshots/scenario.mjs';
import { ansiToHtml, terminalPage } from './screenshots/terminal-html.mjs';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(ROOT, 'packages/cli/bin/monitor.js');
const IMAGES = join(ROOT, 'docs/images');
// The mermaid package the e2e tests draw routing pictures with (test/package.json).
const MERMAID = createRequire(join(ROOT, 'test/package.json')).resolve('mermaid/dist/mermaid.min.js');
const COLUMNS = 136;
const VERIFICATION_FAILED = 8;

/** The plan comment of the change, and `deploy --yes --verify` of it in a terminal. */
async function planAndTerminal() {
  const project = await changedProject({ root: ROOT, bin: BIN });
  try {
    const plan = expectExit(await project.cli(['diff', '--format', 'markdown']), 0, 'monitor diff').stdout;
    const terminal = expectExit(
      await project.pty(['deploy', '--yes', '--verify'], COLUMNS),
      VERIFICATION_FAILED,
      'monitor deploy --verify in a terminal',
    ).stdout;
    return { plan, terminal };
  } finally {
    await project.close();
  }
}

/**
 * The comment `deploy --verify --comment` posts on the merged pull request: the same markdown goes
 * to $GITHUB_STEP_SUMMARY, where it is read from (no code host is needed).
 */
async function deployComment() {
  const project = await changedProject({ root: ROOT, bin: BIN });
  try {
    const summary = join(project.dir, 'step-summary.md');
    writeFileSync(summary, '');
    expectExit(
      await project.cli(['deploy', '--yes', '--verify', '--comment'], { GITHUB_STEP_SUMMARY: summary }),
      VERIFICATION_FAILED,
      'monitor deploy --verify --comment',
    );
    return readFileSync(summary, 'utf8');
  } finally {
    await project.close();
  }
}

async function main() {
  const chromium = findChromium();
  const missing = [chromium === undefined ? 'Chromium ($CHROMIUM, or chromium on the PATH)' : '']
    .concat(onPath('script') === undefined ? ["util-linux's script"] : [])
    .filter((m) => m !== '');
  if (missing.length > 0) {
    console.log(`screenshots skipped: no ${missing.join(' and no ')}; docs/images/ left as they are`);
    return;
  }
  const { plan, terminal } = await planAndTerminal();
  const deploy = await deployComment();
  const pages = [
    [
      'pr-plan-comment',
      commentPage({
        header: 'Comment on the pull request: monitor diff --comment',
        bodyHtml: commentHtml(plan, { openDetails: true }),
        mermaidUrl: pathToFileURL(MERMAID).href,
      }),
    ],
    [
      'pr-deploy-comment',
      commentPage({
        header: 'Comment on the merged pull request: monitor deploy --yes --verify --comment',
        bodyHtml: commentHtml(deploy, { openDetails: true }),
      }),
    ],
    [
      'deploy-verify-terminal',
      terminalPage({
        command: 'monitor deploy --yes --verify',
        screenHtml: ansiToHtml(terminal, { columns: COLUMNS }),
        columns: COLUMNS,
      }),
    ],
  ];
  const work = mkdtempSync(join(tmpdir(), 'monitor-screenshots-pages-'));
  try {
    for (const [name, html] of pages) {
      const page = join(work, `${name}.html`);
      writeFileSync(page, html);
      const png = join(IMAGES, `${name}.png`);
      const { width, height } = await screenshot(chromium, page, png);
      console.log(`wrote ${png} (${width}×${height})`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
