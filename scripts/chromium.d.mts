// Types of chromium.mjs, for the tests that import it.
import type { ExecFileOptions } from 'node:child_process';

type ExecFile = (
  file: string,
  args: readonly string[],
  options: ExecFileOptions,
) => Promise<{ stdout: string; stderr: string }>;

/** A program on the PATH, or undefined. */
export function onPath(name: string): string | undefined;
/** Chromium on this machine: $CHROMIUM, else the first of Debian's and others' names on the PATH. */
export function findChromium(env?: NodeJS.ProcessEnv): string | undefined;
/** The DOM of `file` once its scripts have run, as headless Chromium dumps it. */
export function renderedDom(
  chromium: string,
  file: string,
  options?: { execFile?: ExecFile },
): Promise<string>;
/** `file` as a PNG at `png`, cropped to its content. */
export function screenshot(
  chromium: string,
  file: string,
  png: string,
): Promise<{ width: number; height: number }>;
