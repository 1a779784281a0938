// Headless Chromium (Debian's `chromium`) on a local page: the DOM once its scripts are done
// (`renderedDom`: test/routing-picture.test.ts reads the SVG Mermaid drew), and a PNG cropped to
// its content (`screenshot`, for packages/cli/scripts/screenshots.mjs: one run dumps the DOM to
// read the size the page measured itself (screenshots/page.mjs), a second takes the screenshot at
// exactly that size).
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** A program on the PATH, or undefined. */
export function onPath(name) {
  try {
    return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Chromium on this machine: $CHROMIUM, else the first of Debian's and others' names on the PATH. */
export function findChromium(env = process.env) {
  if (env.CHROMIUM !== undefined && env.CHROMIUM !== '') return env.CHROMIUM;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    const found = onPath(name);
    if (found !== undefined) return found;
  }
  return undefined;
}

function commandLine(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

/**
 * Chromium's helpers (its crash handler) can outlive it for a moment, no longer its children: they
 * are found by the profile directory this run gave it, waited for, and stopped if they linger.
 */
async function helpersGone(profile) {
  const ours = () =>
    readdirSync('/proc')
      .filter((p) => /^\d+$/.test(p))
      .map(Number)
      .filter((pid) => commandLine(pid).includes(profile));
  for (let waited = 0; ours().length > 0 && waited < 10_000; waited += 100) await sleep(100);
  for (const pid of ours()) process.kill(pid, 'SIGKILL');
}

/**
 * Chromium with a fresh profile, headless, on `file`; what it printed on stdout. `execFile` runs
 * it (a test passes one that stops it when the test ends).
 */
async function runChromium(chromium, file, args, execFile = execFileAsync) {
  const profile = mkdtempSync(join(tmpdir(), 'monitor-chromium-'));
  try {
    const { stdout } = await execFile(
      chromium,
      [
        '--headless=new',
        // As root (a container, CI's runner) Chromium refuses to start with its sandbox.
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--force-device-scale-factor=1',
        '--hide-scrollbars',
        `--user-data-dir=${profile}`,
        // Time enough for the page's scripts to settle: Mermaid draws asynchronously.
        '--virtual-time-budget=15000',
        ...args,
        pathToFileURL(file).href,
      ],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    return stdout;
  } finally {
    await helpersGone(profile);
    rmSync(profile, { recursive: true, force: true });
  }
}

/** The DOM of `file` once its scripts have run, as headless Chromium dumps it. */
export function renderedDom(chromium, file, { execFile } = {}) {
  return runChromium(chromium, file, ['--dump-dom'], execFile);
}

/** The size the page measured of itself once complete; an error naming what went wrong in it. */
async function pageSize(chromium, file) {
  const dom = await runChromium(chromium, file, ['--window-size=1400,1000', '--dump-dom']);
  const ready = /<body[^>]*\bdata-ready="([^"]*)"/.exec(dom)?.[1];
  if (ready !== 'yes') throw new Error(`${file}: the page did not complete: ${ready ?? 'still drawing'}`);
  const size = /<body[^>]*\bdata-size="(\d+)x(\d+)"/.exec(dom);
  if (size === null) throw new Error(`${file}: the page did not measure itself`);
  return { width: Number(size[1]), height: Number(size[2]) };
}

/** `file` (a local HTML page of page.mjs's kind) as a PNG at `png`, cropped to its content. */
export async function screenshot(chromium, file, png) {
  const { width, height } = await pageSize(chromium, file);
  await runChromium(chromium, file, [`--window-size=${width},${height}`, `--screenshot=${png}`]);
  return { width, height };
}
