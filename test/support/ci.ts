import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FakeCodeHost, GITHUB_ACTIONS_TOKEN, GITLAB_TOKEN } from './code-hosts.js';
import { BIN, monitor } from './harness.js';
import { projectsUnderTest } from './projects.js';

/** The commit every CI run of the tests is for. */
export const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';

/** GitHub Actions' variables for a run of `event` (a pull request by default) against the fake. */
export function gitHubEnv(
  dir: string,
  host: FakeCodeHost,
  event: unknown = { pull_request: { number: 12 } },
  prefix = '',
) {
  writeFileSync(join(dir, 'event.json'), JSON.stringify(event));
  return {
    GITHUB_ACTIONS: 'true',
    GITHUB_REPOSITORY: 'acme/web',
    GITHUB_TOKEN: GITHUB_ACTIONS_TOKEN,
    GITHUB_API_URL: `${host.url}${prefix}`,
    GITHUB_EVENT_PATH: join(dir, 'event.json'),
    GITHUB_SHA: SHA,
    GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
    GITLAB_CI: '',
    CI_API_V4_URL: '',
  };
}

/** GitLab CI's variables for a job (of a merge request pipeline when `mergeRequestIid` is given). */
export function gitLabEnv(host: FakeCodeHost, mergeRequestIid?: number) {
  return {
    GITHUB_ACTIONS: '',
    GITHUB_REPOSITORY: '',
    GITLAB_CI: 'true',
    CI_API_V4_URL: `${host.url}/api/v4`,
    CI_PROJECT_ID: '42',
    CI_MERGE_REQUEST_IID: mergeRequestIid === undefined ? '' : String(mergeRequestIid),
    CI_COMMIT_SHA: SHA,
    GITLAB_TOKEN,
  };
}

/** A project against the emulator whose runs carry `ciEnv` on top of the account's variables. */
export function ciProjects() {
  const setup = projectsUnderTest();
  return async function ciProject(files: Record<string, string>) {
    const { h, dir } = await setup(files);
    let ciEnv: Record<string, string> = {};
    return {
      h,
      dir,
      useCi(env: Record<string, string>) {
        ciEnv = env;
      },
      run: (...args: string[]) => monitor(args, { cwd: dir, env: { ...h.env, ...ciEnv } }),
    };
  };
}

/**
 * `npx` as the CI jobs run it, written into `dir` (made if missing), to put first on a job's PATH:
 * `npx monitor …` is the built CLI, anything else is not in the tests.
 */
export function writeNpxShim(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'npx'),
    `#!/bin/sh\nif [ "$1" = monitor ]; then shift; exec '${process.execPath}' '${BIN}' "$@"; fi\necho "npx $*: not in this test" >&2\nexit 127\n`,
    { mode: 0o755 },
  );
  return dir;
}
