import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { SavedPlan } from '@monitor/engine';
import type { Argv } from 'yargs';
import type { ExitCode } from '../exit-codes.js';
import {
  type ApplyArgs,
  type CommentArgs,
  type ProjectArgs,
  type ScopeArgs,
  scopeOf,
  withApplyOptions,
  withCommentOptions,
  withProjectOptions,
  withScopeOptions,
} from '../options.js';
import type { RunContext } from '../output.js';
import { type DeployVerifyArgs, withDeployVerifyOptions } from '../verify-options.js';

export interface DeployArgs extends ProjectArgs, ApplyArgs, CommentArgs, ScopeArgs, DeployVerifyArgs {
  plan?: string | undefined;
  allowEmpty?: boolean | undefined;
  secretsOut?: string | undefined;
}

export const builder = (y: Argv) =>
  withCommentOptions(
    withDeployVerifyOptions(withScopeOptions(withApplyOptions(withProjectOptions(y)))),
    'the result (totals and every failure) to the merged pull request, or to the commit when there is none,',
  )
    .option('plan', {
      type: 'string',
      describe: 'Apply exactly this plan from diff --out; exit 4 if the account or state moved since',
    })
    .option('allow-empty', {
      type: 'boolean',
      describe: 'Let a project that declares no resources delete what it owns (refused otherwise: exit 5)',
    })
    .option('secrets-out', {
      type: 'string',
      describe:
        "Where to write values the service shows only once, such as a private dashboard's key: a JSON file only you can read (default .monitor/secrets/deploy-<time>.json). They are never in logs, --json or state",
    })
    .example('$0 deploy', 'show the plan and ask before applying it')
    .example('$0 deploy --yes --allow-deletes', 'in CI')
    .example('$0 deploy --yes --allow-deletes --comment', 'on merge: the result on the merged pull request')
    .example('$0 deploy --plan plan.json --yes', 'apply a reviewed plan')
    .example('$0 deploy --replace slack-ops', 'delete the channel and create it again from the code')
    .example(
      '$0 deploy --yes --verify --comment',
      'on merge: run the checks the deploy changed; exit 8 when one broke (the deploy stays applied)',
    )
    .example('$0 deploy --verify all,strict --rca', 'run every group; fail on any failure, with root causes')
    .example('$0 deploy --local --yes', 'against the embedded emulator')
    .example(
      '$0 deploy --yes --secrets-out "$RUNNER_TEMP/keys.json"',
      'in CI: one-time keys to a file the job hands on',
    );

async function readSavedPlan(path: string, cwd: string): Promise<SavedPlan> {
  const { InvalidPlanError, parseSavedPlan } = await import('@monitor/engine');
  const absolute = resolve(cwd, path);
  let text: string;
  try {
    text = readFileSync(absolute, 'utf8');
  } catch (e) {
    throw new InvalidPlanError(
      `cannot read the saved plan ${absolute}: ${(e as Error).message}`,
      'save one with monitor diff --out plan.json',
    );
  }
  return parseSavedPlan(text, path);
}

/** `monitor deploy`: make the account match the code (or apply exactly a saved plan). */
export async function run(args: DeployArgs, ctx: RunContext): Promise<ExitCode> {
  if (args.plan !== undefined && Object.keys(scopeOf(args)).length > 0) {
    const { UsageError } = await import('../options.js');
    throw new UsageError(
      '--plan applies a saved plan with the targets and replacements it was made with: --target and --replace cannot change them',
      `make a new plan with them: monitor diff --out ${args.plan} --target …`,
    );
  }
  const savedPlan = args.plan === undefined ? undefined : await readSavedPlan(args.plan, ctx.io.cwd);
  const [{ deploy }, { runApplyCommand }] = await Promise.all([
    import('@monitor/engine'),
    import('../apply-ui.js'),
  ]);
  return runApplyCommand(
    'deploy',
    args,
    ctx,
    (target, options, verify) =>
      deploy(target, {
        ...options,
        ...(verify === undefined ? {} : { verify }),
        ...scopeOf(args),
        allowEmpty: args.allowEmpty === true,
        ...(savedPlan === undefined ? {} : { savedPlan }),
      }),
    args.plan,
  );
}
