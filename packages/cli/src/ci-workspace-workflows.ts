import {
  CHECKOUT,
  type CiFile,
  type CiHost,
  type CiOptions,
  DEPLOY_ONLY_DEFAULT_BRANCH,
  DRIFT_ONLY_DEFAULT_BRANCH,
  githubEnv,
  gitlabSecrets,
  HAS_SECRETS,
  header,
  NO_SECRETS,
  NODE,
  SETUP_NODE,
  stateNotSaved,
} from './ci-workflows.js';

/**
 * The CI files of a workspace (`monitor.workspace.ts`, docs/workspaces.md), as `monitor init --ci`
 * writes them there and examples/ci/workspace holds them:
 * - the preview computes the matrix of the projects the pull request touches (`monitor ci
 *   matrix --changed-since`, the projects that reference them included), fans out one job per
 *   project (its plan as its own comment), and ends with one summary job (the workspace's comment:
 *   `monitor ci summary`);
 * - the deploy is one job that deploys every project in dependency order (`deploy --all`): a
 *   project must be deployed after those whose constructs it references, which a matrix cannot
 *   order, and a project no push changed costs only its plan, so a push whose pending run was
 *   cancelled, or a deploy that failed, is caught up by the next; independent projects run side by
 *   side, sharing the account's rate budget;
 * - the nightly drift check keeps each project's pull request of the edits made in the UI (pull --pr).
 * `options.projectDir` is the workspace's directory, relative to the repository's root.
 */
export function workspaceCiFiles(host: CiHost, options: CiOptions): CiFile[] {
  return host === 'github' ? githubWorkspaceWorkflows(options) : [gitlabWorkspacePipeline(options)];
}

/** Pinned by commit, as CHECKOUT and SETUP_NODE are. */
const UPLOAD_ARTIFACT = 'actions/upload-artifact@330a01c490aca151604b8cf639adc76d48f6c5d4 # v5.0.0';
const DOWNLOAD_ARTIFACT = 'actions/download-artifact@634f93cb2916e3fdff6788551b99b062d0335ce0 # v5.0.0';

/** Check out with the history `--changed-since` compares with, set up Node, install: no secret in sight. */
function install(options: CiOptions, fetchDepth: boolean): string {
  const lock =
    options.projectDir === '.'
      ? ''
      : `\n          cache-dependency-path: ${options.projectDir}/package-lock.json`;
  return `      - uses: ${CHECKOUT}
        with:
          persist-credentials: false${fetchDepth ? '\n          fetch-depth: 0 # --changed-since compares with the base' : ''}
      - uses: ${SETUP_NODE}
        with:
          node-version: ${NODE}
          cache: npm${lock}
      # Dependencies' install scripts run here: no secret is in this step's environment.
      - run: npm ci`;
}

const inWorkspace = (options: CiOptions) =>
  options.projectDir === '.' ? '' : `\ndefaults:\n  run:\n    working-directory: ${options.projectDir}\n`;

function githubPreview(options: CiOptions): string {
  const dir = options.projectDir;
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub expression, for the workflow
  const resultsDir = '${{ runner.temp }}/monitor-results';
  return `${header('github', options, [
    'monitor preview of a workspace: the projects a pull request touches (their files, files they',
    'import, and the projects that reference them) each get a plan job and their own comment;',
    "one summary job keeps the workspace's comment, a row per project. No path filter: the matrix",
    "is computed from what each project's build reads.",
  ])}
name: monitor preview

on:
  pull_request:

permissions:
  contents: read

concurrency:
  group: monitor-preview-\${{ github.event.pull_request.number }}
  cancel-in-progress: true
${inWorkspace(options)}
jobs:
  # Needs no account and no secret: every pull request, forks and Dependabot's included.
  matrix:
    runs-on: ubuntu-latest
    timeout-minutes: 15
    outputs:
      matrix: \${{ steps.matrix.outputs.matrix }}
      count: \${{ steps.matrix.outputs.count }}
    steps:
${install(options, true)}
      - name: The projects this pull request touches
        id: matrix
        env:
          BASE: \${{ github.event.pull_request.base.sha }}
        run: |
          matrix="$(npx monitor ci matrix --changed-since "$BASE")"
          echo "matrix=$matrix" >> "$GITHUB_OUTPUT"
          echo "count=$(node -p 'JSON.parse(process.argv[1]).include.length' "$matrix")" >> "$GITHUB_OUTPUT"
          echo "$matrix"
      - name: Validate them
        env:
          BASE: \${{ github.event.pull_request.base.sha }}
        run: npx monitor validate --changed-since "$BASE"
      - name: Say why there is no plan
        if: ${NO_SECRETS}
        run: echo "::notice title=monitor preview skipped::This pull request cannot see the repository's secrets (it comes from a fork, or from Dependabot), so monitor cannot read the account. It was validated, not planned (docs/ci.md)."

  # One job per project; skipped, not failed, for pull requests that get no secrets.
  plan:
    needs: matrix
    if: needs.matrix.outputs.count != '0' && ${HAS_SECRETS}
    runs-on: ubuntu-latest
    timeout-minutes: 15
    permissions:
      contents: read
      pull-requests: write # the project's plan comment
    strategy:
      fail-fast: false
      matrix: \${{ fromJSON(needs.matrix.outputs.matrix) }}
    steps:
${install(options, false)}
      # diff only reads the account: MONITOR_API_KEY may be a read-only key here (docs/ci.md).
      - name: Plan of \${{ matrix.project }}, posted on the pull request
        working-directory: ${dir === '.' ? '' : `${dir}/`}\${{ matrix.dir }}
        run: |
          mkdir -p "$RESULTS"
          npx monitor diff --comment --json > "$RESULTS/$FILE.json"
${githubEnv(options, '        ').replace(/\n$/, '')}
          FILE: \${{ matrix.file }}
          RESULTS: ${resultsDir}
      - name: Keep the plan for the summary
        if: always()
        uses: ${UPLOAD_ARTIFACT}
        with:
          name: monitor-plan-\${{ matrix.file }}
          path: ${resultsDir}
          if-no-files-found: ignore
          retention-days: 1

  summary:
    needs: [matrix, plan]
    if: always() && needs.matrix.outputs.count != '0' && ${HAS_SECRETS}
    runs-on: ubuntu-latest
    timeout-minutes: 10
    permissions:
      contents: read
      pull-requests: write # the workspace's comment
    steps:
${install(options, false)}
      - uses: ${DOWNLOAD_ARTIFACT}
        with:
          pattern: monitor-plan-*
          merge-multiple: true
          path: ${resultsDir}
      - name: The workspace's comment
        env:
          MATRIX: \${{ needs.matrix.outputs.matrix }}
          RESULTS: ${resultsDir}
          GITHUB_TOKEN: \${{ secrets.GITHUB_TOKEN }}
        run: |
          shopt -s nullglob
          npx monitor ci summary "$RESULTS"/*.json --matrix "$MATRIX" --comment
`;
}

function githubDeploy(options: CiOptions): string {
  const file = options.state === 'file';
  const notSaved = stateNotSaved(
    '$GITHUB_REF_NAME',
    'contents: write; a rule that requires pull requests must let github-actions[bot] through',
  );
  const commit = file
    ? `

      # Every project's state records the writes its deploy made, also when it failed: commit them
      # back, so that the next deploy starts from them. A push that fails fails the job, saying so.
      - name: Commit the state
        if: always() && (steps.deploy.outcome == 'success' || steps.deploy.outcome == 'failure')
        env:
          GITHUB_TOKEN: \${{ secrets.GITHUB_TOKEN }}
        run: |
          git add --all -- ':(glob)**/.monitor/state/**'
          if git diff --cached --quiet; then exit 0; fi
          git -c user.name="github-actions[bot]" -c user.email="41898282+github-actions[bot]@users.noreply.github.com" \\
            commit -m "monitor: state after the deploy of \${GITHUB_SHA::7}"
          remote="https://x-access-token:\${GITHUB_TOKEN}@\${GITHUB_SERVER_URL#https://}/\${GITHUB_REPOSITORY}.git"
          if ! { git pull --rebase "$remote" "$GITHUB_REF_NAME" && git push "$remote" "HEAD:$GITHUB_REF_NAME"; }; then
            echo "::error title=monitor state not saved::${notSaved.error}%0Ahint: ${notSaved.hint}"
            exit 1
          fi`
    : '';
  return `${header('github', options, [
    'monitor deploy of a workspace: on every push to the default branch, deploy every project in',
    'dependency order, independent ones side by side (a project the push did not change plans',
    "nothing); each posts its result on the merged pull request, and the workspace's comment sums",
    'them up.',
  ])}
name: monitor deploy

on:
  push:
    branches: [${options.branch}]
  workflow_dispatch:

permissions:
  contents: ${file ? 'write # the state, committed after each deploy' : 'read'}
  pull-requests: write # the results on the merged pull request

concurrency:
  group: monitor-deploy
  cancel-in-progress: false
${inWorkspace(options)}
jobs:
  deploy:
    runs-on: ubuntu-latest
    timeout-minutes: 60
    environment: production
    steps:
${DEPLOY_ONLY_DEFAULT_BRANCH}
${install(options, true)}
      # Every project, every time: a project no push changed plans nothing and is left alone, and a
      # push whose run was cancelled while pending (one pending run per concurrency group) or a
      # deploy that failed is caught up by the next one. --changed-since would skip both.
      - name: Deploy
        id: deploy
        run: npx monitor deploy --all --yes --allow-deletes --verify --comment --lock-timeout 300
${githubEnv(options, '        ')}${commit}
`;
}

function githubDrift(options: CiOptions): string {
  return `${header('github', options, [
    'monitor drift of a workspace: every night, does each project still match the default branch?',
    'Each project gets its own pull request of the edits made in the UI (branch monitor/pull/<project>,',
    'by monitor pull --pr), closed when they are gone; what pull cannot write goes to its own drift',
    'issue (label monitor-drift). GitHub lets a workflow open pull requests only when Settings →',
    'Actions → General allows it.',
  ])}
name: monitor drift

on:
  schedule:
    - cron: "17 5 * * *"
  workflow_dispatch:

permissions:
  contents: read
  issues: write # the drift issues

concurrency:
  group: monitor-drift
  cancel-in-progress: true
${inWorkspace(options)}
jobs:
  drift:
    runs-on: ubuntu-latest
    timeout-minutes: 30
    # pull --pr pushes the branches monitor/pull/<project> and keeps their pull requests: only this job may.
    permissions:
      contents: write
      pull-requests: write
      issues: write # the drift issues
    steps:
${DRIFT_ONLY_DEFAULT_BRANCH}
${install(options, false)}
      # pull --pr only reads the account, and pushes with GITHUB_TOKEN itself.
      - name: Drift, as one pull request per project
        run: npx monitor pull --all --pr
${githubEnv(options, '        ')}`;
}

function githubWorkspaceWorkflows(options: CiOptions): CiFile[] {
  return [
    { path: '.github/workflows/monitor-preview.yml', text: githubPreview(options) },
    { path: '.github/workflows/monitor-deploy.yml', text: githubDeploy(options) },
    { path: '.github/workflows/monitor-drift.yml', text: githubDrift(options) },
  ];
}

// ---- GitLab CI ------------------------------------------------------------------------------

function gitlabWorkspacePipeline(options: CiOptions): CiFile {
  const file = options.state === 'file';
  const inDir = options.projectDir === '.' ? '' : `\n    - cd ${options.projectDir}`;
  const lock = options.projectDir === '.' ? 'package-lock.json' : `${options.projectDir}/package-lock.json`;
  const unset = gitlabSecrets(options)
    .map((v) => `-u ${v}`)
    .join(' ');
  const notSaved = stateNotSaved(
    '$CI_COMMIT_BRANCH',
    'GITLAB_TOKEN needs write_repository, and its user must be allowed to push to the protected branch',
  );
  const deployCommand =
    'npx monitor deploy --all --yes --allow-deletes --verify --comment --lock-timeout 300';
  const commit = file
    ? `
    - |
      git add --all -- ':(glob)**/.monitor/state/**'
      if ! git diff --cached --quiet; then
        git -c user.name="monitor" -c user.email="monitor@$CI_SERVER_HOST" commit -m "monitor state after the deploy of $CI_COMMIT_SHORT_SHA"
        remote="$CI_SERVER_PROTOCOL://oauth2:$GITLAB_TOKEN@\${CI_SERVER_FQDN:-$CI_SERVER_HOST}/$CI_PROJECT_PATH.git"
        if ! { git pull --rebase "$remote" "$CI_COMMIT_BRANCH" && git push -o ci.skip "$remote" "HEAD:$CI_COMMIT_BRANCH"; }; then
          echo "error: ${notSaved.error}"
          echo "hint: ${notSaved.hint}"
          exit 1
        fi
      fi`
    : '';
  const cd = options.projectDir === '.' ? '' : `cd ${options.projectDir} && `;
  // The child pipeline of a merge request's plans; the matrix (ci matrix --format gitlab) goes
  // between head and tail, in the plan job. Written with quoted heredocs: nothing in them is
  // expanded when it is written, only when its jobs run.
  const childNone = `stages: [plan]
monitor:none:
  stage: plan
  image: node:${NODE}
  script:
    - echo "no project of the workspace changed"`;
  const childHead = `stages: [plan, summary]
default:
  image: node:${NODE}
  before_script:
    - ${cd}env ${unset} npm ci
monitor:plan:
  stage: plan`;
  const childTail = `  script:
    - mkdir -p "$CI_PROJECT_DIR/results"
    - cd "$DIR"
    - npx monitor diff --comment --json > "$CI_PROJECT_DIR/results/$FILE.json"
  artifacts:
    when: always
    paths: [results/]
# The matrix (the parent's matrix.json): a project whose job left no plan is listed as failed.
monitor:summary:
  stage: summary
  when: always
  needs:
    - job: monitor:plan
    - pipeline: $PARENT_PIPELINE_ID
      job: monitor:matrix
  script:
    - npx monitor ci summary "$CI_PROJECT_DIR"/results/*.json --matrix "$(cat "$CI_PROJECT_DIR/matrix.json")" --comment`;
  const text = `${header('gitlab', options, [
    "monitor's jobs for a workspace in GitLab CI: a merge request's plans, one child-pipeline job per",
    'project it touches and a summary of the workspace; deploy of what a push to the default branch',
    'touched, in dependency order; a drift check on a pipeline schedule.',
  ])}

stages: [test, plan, deploy]

.monitor:
  image: node:${NODE}
  variables:
    GIT_DEPTH: 0 # --changed-since compares with the base
  cache:
    key:
      files: [${lock}]
    paths: [.npm/]
  before_script:${inDir}
    - env ${unset} npm ci --cache .npm --prefer-offline

# The projects the merge request touches, as a child pipeline: a plan job per project (its own
# comment, its --json kept), and the workspace's comment from them.
monitor:matrix:
  extends: .monitor
  stage: test
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"
  interruptible: true
  script:
    - npx monitor validate --changed-since "$CI_MERGE_REQUEST_DIFF_BASE_SHA"
    - npx monitor ci matrix --changed-since "$CI_MERGE_REQUEST_DIFF_BASE_SHA" --format gitlab > "$CI_PROJECT_DIR/matrix.yml"
    - npx monitor ci matrix --changed-since "$CI_MERGE_REQUEST_DIFF_BASE_SHA" > "$CI_PROJECT_DIR/matrix.json"
    - |
      if grep -qF 'matrix: []' "$CI_PROJECT_DIR/matrix.yml"; then
        cat > "$CI_PROJECT_DIR/monitor-plans.yml" <<'YAML'
${indentLines(childNone, 0)}
      YAML
      else
        {
          cat <<'YAML'
${indentLines(childHead, 0)}
      YAML
          sed 's/^/  /' "$CI_PROJECT_DIR/matrix.yml"
          cat <<'YAML'
${indentLines(childTail, 0)}
      YAML
        } > "$CI_PROJECT_DIR/monitor-plans.yml"
      fi
  artifacts:
    paths: [monitor-plans.yml, matrix.json]

monitor:plans:
  stage: plan
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event" && $MONITOR_API_KEY
  needs: [monitor:matrix]
  # A child pipeline does not get its merge request's predefined variables (gitlab-org/gitlab#214578):
  # the comments need to know which merge request they are for.
  variables:
    CI_MERGE_REQUEST_IID: $CI_MERGE_REQUEST_IID
    # Its summary job takes the matrix from this pipeline's matrix job.
    PARENT_PIPELINE_ID: $CI_PIPELINE_ID
  trigger:
    include:
      - artifact: monitor-plans.yml
        job: monitor:matrix
    strategy: depend

# Only the default branch deploys: every project, in dependency order (a project the push did not
# change plans nothing; one an earlier pipeline failed to deploy is caught up).
monitor:deploy:
  extends: .monitor
  stage: deploy
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH && ($CI_PIPELINE_SOURCE == "push" || $CI_PIPELINE_SOURCE == "web")
  resource_group: monitor-production
  environment: production
  script:
    - status=0
    - ${deployCommand} || status=$?${commit}
    - exit $status

# The edits made in the UI as one merge request per project (branch monitor/pull/<project>); what
# pull cannot write goes to each project's issue. GITLAB_TOKEN needs api and write_repository.
monitor:drift:
  extends: .monitor
  stage: test
  rules:
    - if: $CI_PIPELINE_SOURCE == "schedule"
  script:
    - npx monitor pull --all --pr
`;
  return { path: '.gitlab-ci.yml', text };
}

/** `text` with each line but empty ones indented by 6 spaces, as a line of a YAML block script: its own column 0. */
function indentLines(text: string, extra: number): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? line : `${' '.repeat(6 + extra)}${line}`))
    .join('\n');
}
