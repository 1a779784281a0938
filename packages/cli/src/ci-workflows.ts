/**
 * The CI files `monitor init --ci` writes, and examples/ci holds (`npm run docs` writes those from
 * here; a test fails when they are stale). One generator for both, so that what is tested as
 * shipped is what init writes.
 *
 * What they hold to (docs/ci.md): deploy only from the default branch, no path filter that could
 * skip a change silently, secrets only in the step that runs monitor (never in `npm ci`), actions
 * pinned by commit, a current Node LTS, and pull requests that cannot see secrets skipped with a
 * reason instead of failing.
 */

export type CiHost = 'github' | 'gitlab';
export type StateBackendChoice = 'file' | 'postgres';

export interface CiOptions {
  state: StateBackendChoice;
  /** The branch that deploys: the repository's default branch. */
  branch: string;
  /** The project's directory relative to the repository's root; `.` when it is the root. */
  projectDir: string;
}

export interface CiFile {
  /** Relative to the repository's root. */
  path: string;
  text: string;
}

/** Pinned by commit: a tag can be moved to other code, a commit cannot. */
export const CHECKOUT = 'actions/checkout@08c6903cd8c0fde910a37f88322edcfb5dd907a8 # v5.0.0';
export const SETUP_NODE = 'actions/setup-node@a0853c24544627f65ddf259abe73b1d18a591444 # v5.0.0';
/** The Node LTS the jobs run on (the packages support Node 20.19 and later). */
export const NODE = 24;

export function ciFiles(host: CiHost, options: CiOptions): CiFile[] {
  return host === 'github' ? githubWorkflows(options) : [gitlabPipeline(options)];
}

export function header(host: CiHost, options: CiOptions, lines: string[]): string {
  const dir = options.projectDir === '.' ? '' : ` ${options.projectDir}`;
  return [
    ...lines.map((l) => `# ${l}`),
    `# Written by monitor init${dir} --ci ${host} --state ${options.state}; init never overwrites it.`,
    `# State: ${options.state === 'postgres' ? 'PostgreSQL (MONITOR_STATE_URL)' : 'files in .monitor/state/, committed by the deploy job'}. Secrets and variables: docs/ci.md.`,
  ].join('\n');
}

/**
 * What a deploy job says when the commit of the state (file backend) could not be pushed: the job
 * fails, the state was not saved, and the way back. `branch` is a shell expression; `access` says
 * what the job's token needs to push there.
 */
export function stateNotSaved(branch: string, access: string): { error: string; hint: string } {
  return {
    error: `the state after this deploy was not saved: its commit of .monitor/state could not be pushed to ${branch} (git says why above), and a deploy from the state before it would not know what this one created`,
    hint: `let this job push to ${branch} (${access}); then, before the next deploy, run 'npx monitor import --recover --yes' on ${branch} with this project's variables and commit .monitor/state (docs/ci.md)`,
  };
}

// ---- GitHub Actions -------------------------------------------------------------------------

/** The first step of a deploy job: a run for any ref but the default branch fails, saying why. */
export const DEPLOY_ONLY_DEFAULT_BRANCH = `      - name: Deploy only the default branch
        if: github.ref != format('refs/heads/{0}', github.event.repository.default_branch)
        env:
          REF: \${{ github.ref }}
          DEFAULT_BRANCH: \${{ github.event.repository.default_branch }}
        run: |
          echo "::error title=monitor deploy refused::monitor deploys only the default branch ($DEFAULT_BRANCH); this run is for $REF. Merge the change, then deploy."
          exit 1`;

/** The first step of a drift job: drift is the default branch against the account. */
export const DRIFT_ONLY_DEFAULT_BRANCH = `      - name: Drift only of the default branch
        if: github.ref != format('refs/heads/{0}', github.event.repository.default_branch)
        env:
          REF: \${{ github.ref }}
          DEFAULT_BRANCH: \${{ github.event.repository.default_branch }}
        run: |
          echo "::error title=monitor drift refused::the drift check compares the account with the default branch ($DEFAULT_BRANCH); this run is for $REF."
          exit 1`;

/** The `env:` of a step that runs monitor: every secret it needs, and only there. */
export function githubEnv(options: CiOptions, indent: string): string {
  const secret = (name: string) => `${name}: \${{ secrets.${name} }}`;
  const variable = (name: string) => `${name}: \${{ vars.${name} }}`;
  const lines = [
    secret('MONITOR_API_KEY'),
    variable('MONITOR_ACCOUNT_ID'),
    variable('MONITOR_BASE_URL'),
    ...(options.state === 'postgres' ? [secret('MONITOR_STATE_URL')] : []),
    secret('MONITOR_STATE_SECRET'),
    secret('GITHUB_TOKEN'),
  ];
  return `${indent}env:\n${lines.map((l) => `${indent}  ${l}`).join('\n')}`;
}

/** Check out without leaving the token in .git/config, set up Node, install: no secret in sight. */
function githubInstall(options: CiOptions): string {
  const lock =
    options.projectDir === '.'
      ? ''
      : `\n          cache-dependency-path: ${options.projectDir}/package-lock.json`;
  return `      - uses: ${CHECKOUT}
        with:
          persist-credentials: false
      - uses: ${SETUP_NODE}
        with:
          node-version: ${NODE}
          cache: npm${lock}
      # Dependencies' install scripts run here: no secret is in this step's environment.
      - run: npm ci`;
}

function githubDefaults(options: CiOptions): string {
  return options.projectDir === '.'
    ? ''
    : `\ndefaults:\n  run:\n    working-directory: ${options.projectDir}\n`;
}

/** A pull request whose runs get no secrets: one from a fork, or one Dependabot opened. */
export const NO_SECRETS =
  "github.event.pull_request.head.repo.full_name != github.repository || github.actor == 'dependabot[bot]'";
export const HAS_SECRETS =
  "github.event.pull_request.head.repo.full_name == github.repository && github.actor != 'dependabot[bot]'";

function githubWorkflows(options: CiOptions): CiFile[] {
  const file = options.state === 'file';
  const preview = `${header('github', options, [
    'monitor preview: the plan of every pull request, as one comment updated on each push.',
    'Every pull request runs it, whatever files it changes: a project is whatever its include',
    'patterns and their imports load, so a path filter would skip changes without a word.',
  ])}
name: monitor preview

on:
  pull_request:

permissions:
  contents: read

# One preview per pull request: a new push cancels the preview of the previous one.
concurrency:
  group: monitor-preview-\${{ github.event.pull_request.number }}
  cancel-in-progress: true
${githubDefaults(options)}
jobs:
  # Needs no account and no secret: every pull request, forks and Dependabot's included.
  validate:
    runs-on: ubuntu-latest
    timeout-minutes: 15
    steps:
${githubInstall(options)}
      - name: Validate the project
        run: npx monitor validate
      - name: Say why there is no plan
        if: ${NO_SECRETS}
        run: echo "::notice title=monitor preview skipped::This pull request cannot see the repository's secrets (it comes from a fork, or from Dependabot), so monitor cannot read the account. It was validated, not planned (docs/ci.md)."

  # Skipped, not failed, for pull requests that get no secrets: the validate job says why.
  plan:
    needs: validate
    if: ${HAS_SECRETS}
    runs-on: ubuntu-latest
    timeout-minutes: 15
    permissions:
      contents: read
      pull-requests: write # the plan comment
    steps:
${githubInstall(options)}
      # diff only reads the account: MONITOR_API_KEY may be a read-only key here (docs/ci.md).
      - name: Plan, posted on the pull request
        run: npx monitor diff --comment
${githubEnv(options, '        ')}
`;

  const notSaved = stateNotSaved(
    '$GITHUB_REF_NAME',
    'contents: write; a rule that requires pull requests must let github-actions[bot] through',
  );
  const commit = file
    ? `

      # The state records every write the deploy made, also when it failed: commit it back, so
      # that the next deploy starts from it. A push that fails fails the job, saying so. (If
      # monitor.config.ts sets state.path, add that path.)
      - name: Commit the state
        if: always() && (steps.deploy.outcome == 'success' || steps.deploy.outcome == 'failure')
        env:
          GITHUB_TOKEN: \${{ secrets.GITHUB_TOKEN }}
        run: |
          if [ -d .monitor/state ]; then git add .monitor/state; fi
          if git diff --cached --quiet; then exit 0; fi
          git -c user.name="github-actions[bot]" -c user.email="41898282+github-actions[bot]@users.noreply.github.com" \\
            commit -m "monitor: state after the deploy of \${GITHUB_SHA::7}"
          remote="https://x-access-token:\${GITHUB_TOKEN}@\${GITHUB_SERVER_URL#https://}/\${GITHUB_REPOSITORY}.git"
          if ! { git pull --rebase "$remote" "$GITHUB_REF_NAME" && git push "$remote" "HEAD:$GITHUB_REF_NAME"; }; then
            echo "::error title=monitor state not saved::${notSaved.error}%0Ahint: ${notSaved.hint}"
            exit 1
          fi`
    : '';
  const deploy = `${header('github', options, [
    'monitor deploy: deploy what was merged to the default branch, run the checks of the groups it',
    'changed (--verify: the job fails with exit 8 when one broke; the deploy stays applied), and post',
    'both on the merged pull request. It runs on every push to that branch (no path filter: any file',
    'the project loads can change what it deploys), or by hand; a run for any other ref refuses.',
  ])}
name: monitor deploy

on:
  push:
    branches: [${options.branch}]
  workflow_dispatch:

permissions:
  contents: ${file ? 'write # the state, committed after each deploy' : 'read'}
  pull-requests: write # the result on the merged pull request

# One deploy at a time, in order; never cancel one that is running (the state lock would also
# make a second one wait, with --lock-timeout).
concurrency:
  group: monitor-deploy
  cancel-in-progress: false
${githubDefaults(options)}
jobs:
  deploy:
    runs-on: ubuntu-latest
    timeout-minutes: 30
    # Its secrets (the MONITOR_API_KEY that may write) and its branch rule: docs/ci.md.
    environment: production
    steps:
${DEPLOY_ONLY_DEFAULT_BRANCH}
${githubInstall(options)}
      - name: Deploy
        id: deploy
        run: npx monitor deploy --yes --allow-deletes --verify --comment --lock-timeout 300
${githubEnv(options, '        ')}${commit}
`;

  const drift = `${header('github', options, [
    'monitor drift: every night, does the account still match the default branch? Changes made',
    'in the UI or by API show up here. By default monitor pull --pr writes them into the code as one',
    'pull request (branch monitor/pull/<project>), updated while they last and closed when they are',
    'gone; what pull cannot write (secrets, computed values) goes to one issue (label monitor-drift).',
    'GitHub lets a workflow open pull requests only when Settings → Actions → General allows it.',
    'Set the repository variable MONITOR_DRIFT_MODE=fail to fail the job instead.',
  ])}
name: monitor drift

on:
  schedule:
    - cron: "17 5 * * *"
  workflow_dispatch:

permissions:
  contents: read
  issues: write # the drift issue

concurrency:
  group: monitor-drift
  cancel-in-progress: true
${githubDefaults(options)}
jobs:
  drift:
    runs-on: ubuntu-latest
    timeout-minutes: 15
    # pull --pr pushes the branch monitor/pull/<project> and keeps its pull request: only this job may.
    permissions:
      contents: write
      pull-requests: write
      issues: write # the drift and audit issues
    steps:
      # The drift issue compares the account with the default branch: a manual run of another
      # branch would report that branch's changes as drift.
${DRIFT_ONLY_DEFAULT_BRANCH}
${githubInstall(options)}
      # pull --pr only reads the account: MONITOR_API_KEY may be a read-only key here (docs/ci.md).
      # It pushes with GITHUB_TOKEN itself: the checkout keeps no credentials.
      - name: Drift, as one pull request
        if: vars.MONITOR_DRIFT_MODE != 'fail'
        run: npx monitor pull --pr
${githubEnv(options, '        ')}

      - name: Drift fails the job
        if: vars.MONITOR_DRIFT_MODE == 'fail'
        run: npx monitor diff --detailed-exitcode
${githubEnv(options, '        ')}

      # The project's policies over every resource of the account, owned or not: one issue (label
      # monitor-audit) while one breaks them, closed when none does; an error fails the job. It
      # runs when the drift step failed too, and only on the default branch, as the drift does.
      - name: Audit, as one issue
        if: \${{ !cancelled() && github.ref == format('refs/heads/{0}', github.event.repository.default_branch) }}
        run: npx monitor audit --issue
${githubEnv(options, '        ')}
`;
  return [
    { path: '.github/workflows/monitor-preview.yml', text: preview },
    { path: '.github/workflows/monitor-deploy.yml', text: deploy },
    { path: '.github/workflows/monitor-drift.yml', text: drift },
  ];
}

// ---- GitLab CI ------------------------------------------------------------------------------

/** Variables that only the monitor commands may see: unset for `npm ci`. */
export function gitlabSecrets(options: CiOptions): string[] {
  return [
    'MONITOR_API_KEY',
    ...(options.state === 'postgres' ? ['MONITOR_STATE_URL'] : []),
    'MONITOR_STATE_SECRET',
    'GITLAB_TOKEN',
  ];
}

function gitlabPipeline(options: CiOptions): CiFile {
  const file = options.state === 'file';
  const inDir = options.projectDir === '.' ? '' : `\n    - cd ${options.projectDir}`;
  const lock = options.projectDir === '.' ? 'package-lock.json' : `${options.projectDir}/package-lock.json`;
  const unset = gitlabSecrets(options)
    .map((v) => `-u ${v}`)
    .join(' ');
  const deployCommand = 'npx monitor deploy --yes --allow-deletes --verify --comment --lock-timeout 300';
  const notSaved = stateNotSaved(
    '$CI_COMMIT_BRANCH',
    'GITLAB_TOKEN needs write_repository, and its user must be allowed to push to the protected branch',
  );
  const deploy = file
    ? `
    # The deploy's exit code is kept for the end: the state is committed back whatever it was.
    - status=0
    - ${deployCommand} || status=$?
    # The state records every write the deploy made, also when it failed: commit it back, so that
    # the next deploy starts from it. Here in script, not after_script, whose failures GitLab
    # ignores (gitlab-org/gitlab#21008): a push that fails fails the job, saying so. GITLAB_TOKEN
    # needs write_repository (docs/ci.md). If monitor.config.ts sets state.path, add that path.
    - |
      if [ -d .monitor/state ]; then git add .monitor/state; fi
      if ! git diff --cached --quiet; then
        git -c user.name="monitor" -c user.email="monitor@$CI_SERVER_HOST" commit -m "monitor state after the deploy of $CI_COMMIT_SHORT_SHA"
        remote="$CI_SERVER_PROTOCOL://oauth2:$GITLAB_TOKEN@\${CI_SERVER_FQDN:-$CI_SERVER_HOST}/$CI_PROJECT_PATH.git"
        if ! { git pull --rebase "$remote" "$CI_COMMIT_BRANCH" && git push -o ci.skip "$remote" "HEAD:$CI_COMMIT_BRANCH"; }; then
          echo "error: ${notSaved.error}"
          echo "hint: ${notSaved.hint}"
          exit 1
        fi
      fi
    - exit $status`
    : `
    - ${deployCommand}`;
  const text = `${header('gitlab', options, [
    "monitor's jobs for GitLab CI: the plan on every merge request, deploy on the default branch,",
    'and a drift check on a pipeline schedule. Merge them into your .gitlab-ci.yml, or include',
    'this file. No job has a changes: filter: any file the project loads can change the plan.',
  ])}

stages: [test, deploy]

# What the monitor jobs share. Dependencies install without monitor's variables: their install
# scripts run in this step, and see no API key, state URL or token.
.monitor:
  image: node:${NODE}
  cache:
    key:
      files: [${lock}]
    paths: [.npm/]
  before_script:${inDir}
    - env ${unset} npm ci --cache .npm --prefer-offline

# MONITOR_API_KEY, ${options.state === 'postgres' ? 'MONITOR_STATE_URL, ' : ''}MONITOR_STATE_SECRET and GITLAB_TOKEN are masked CI/CD
# variables (Settings → CI/CD → Variables); MONITOR_ACCOUNT_ID and MONITOR_BASE_URL may be plain.

# diff only reads the account: MONITOR_API_KEY may be a read-only key for merge requests.
monitor:preview:
  extends: .monitor
  stage: test
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event" && $MONITOR_API_KEY
  # A new push to the merge request cancels the preview of the previous one.
  interruptible: true
  script:
    - npx monitor validate
    - npx monitor diff --comment

# A merge request pipeline that cannot see MONITOR_API_KEY (one from a fork, or the variable is
# protected) is validated, not planned, and says why.
monitor:validate:
  extends: .monitor
  stage: test
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event" && ($MONITOR_API_KEY == null || $MONITOR_API_KEY == "")
  interruptible: true
  script:
    - echo "monitor preview skipped - this pipeline cannot see MONITOR_API_KEY (a fork, or a protected variable), so monitor cannot read the account; validated, not planned (docs/ci.md)"
    - npx monitor validate

# Only the default branch deploys: a push to it, or a pipeline run by hand on it.
monitor:deploy:
  extends: .monitor
  stage: deploy
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH && ($CI_PIPELINE_SOURCE == "push" || $CI_PIPELINE_SOURCE == "web")
  # One deploy at a time, in order.
  resource_group: monitor-production
  environment: production
  script:${deploy}

monitor:drift:
  extends: .monitor
  stage: test
  rules:
    # Set MONITOR_DRIFT_MODE=fail on the schedule to fail the pipeline instead of keeping a merge request.
    - if: $CI_PIPELINE_SOURCE == "schedule" && $MONITOR_DRIFT_MODE == "fail"
      variables:
        DRIFT_COMMAND: diff --detailed-exitcode
    # The edits made in the UI as one merge request (branch monitor/pull/<project>); what pull cannot
    # write goes to one issue. GITLAB_TOKEN needs api and write_repository (docs/ci.md).
    - if: $CI_PIPELINE_SOURCE == "schedule"
      variables:
        DRIFT_COMMAND: pull --pr
  script:
    - npx monitor $DRIFT_COMMAND
    # The project's policies over every resource of the account, owned or not: one issue (label
    # monitor-audit) while one breaks them, closed when none does; an error fails the job.
    - npx monitor audit --issue
`;
  return { path: '.gitlab-ci.yml', text };
}
