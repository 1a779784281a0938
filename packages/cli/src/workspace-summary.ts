import { escapeMarkdown, markdownLink } from '@monitor/engine/escape';

/**
 * One project's row in the workspace's comment: its outcome, its plan line, what its policies
 * found, how many groups' routes it changes, and its own comment. Made from what its run recorded
 * (`factsOfRun`), or from its `--json` envelope read back from a CI job's file (`factsOfEnvelope`).
 */
export interface ProjectFacts {
  name: string;
  exitCode: number | null;
  /** `ok`, `changes`, `failed`, `skipped`, or `missing` (its job left no answer). */
  outcome: 'ok' | 'changes' | 'failed' | 'skipped' | 'missing';
  /** The counts of its plan, when it made one. */
  summary: Record<string, number> | null;
  findings: { error: number; warning: number };
  /** Groups whose route the plan changes. */
  routingGroups: number;
  /** Its own comment, when it posted one. */
  commentUrl: string | null;
  /** What went wrong, for a failed project. */
  error: string | null;
}

/** What a project's run knows beside its envelope: the facts of its plan, with or without --json. */
export interface PlanFacts {
  summary: Record<string, number>;
  findings: { error: number; warning: number };
  routingGroups: number;
}

/** The facts of a plan: what `Output.planFacts` keeps of it. */
export function planFacts(plan: {
  summary: Record<string, number> | object;
  findings: readonly { severity: string }[];
  routing?: { changes: readonly unknown[] } | undefined;
}): PlanFacts {
  return {
    summary: plan.summary as Record<string, number>,
    findings: {
      error: plan.findings.filter((f) => f.severity === 'error').length,
      warning: plan.findings.filter((f) => f.severity === 'warning').length,
    },
    routingGroups: plan.routing?.changes.length ?? 0,
  };
}

/** A plan with changes is `changes` whether or not the run asked for --detailed-exitcode. */
function outcomeOf(exitCode: number | null, plan: PlanFacts | null): ProjectFacts['outcome'] {
  if (exitCode === null) return 'missing';
  if (exitCode !== 0 && exitCode !== 2) return 'failed';
  const changes = exitCode === 2 || (plan !== null && planLine(plan.summary) !== 'no changes');
  return changes ? 'changes' : 'ok';
}

export function factsOfRun(run: {
  name: string;
  exitCode: number;
  skipped: boolean;
  plan: PlanFacts | null;
  result: Record<string, unknown> | null;
  error: { message: string } | null;
}): ProjectFacts {
  return {
    name: run.name,
    exitCode: run.exitCode,
    outcome: run.skipped ? 'skipped' : outcomeOf(run.exitCode, run.plan),
    summary: run.plan?.summary ?? null,
    findings: run.plan?.findings ?? { error: 0, warning: 0 },
    routingGroups: run.plan?.routingGroups ?? 0,
    commentUrl: commentUrlOf(run.result),
    error: run.error?.message ?? null,
  };
}

function commentUrlOf(result: Record<string, unknown> | null): string | null {
  const comment = result?.comment as { url?: unknown } | undefined;
  return typeof comment?.url === 'string' ? comment.url : null;
}

/** A project's facts from its `--json` envelope (formatVersion 2), as a CI job saved it. */
export function factsOfEnvelope(name: string, envelope: Record<string, unknown>): ProjectFacts {
  const plan = envelope.plan as
    | {
        summary?: Record<string, number>;
        findings?: { severity: string }[];
        routing?: { changes: unknown[] };
      }
    | null
    | undefined;
  const facts =
    plan?.summary === undefined
      ? null
      : planFacts({ summary: plan.summary, findings: plan.findings ?? [], routing: plan.routing });
  const error = envelope.error as { message?: unknown } | null | undefined;
  return factsOfRun({
    name,
    exitCode: typeof envelope.exitCode === 'number' ? envelope.exitCode : 1,
    skipped: (error as { code?: unknown } | null | undefined)?.code === 'skipped',
    plan: facts,
    result: (envelope.result as Record<string, unknown> | null | undefined) ?? null,
    error: typeof error?.message === 'string' ? { message: error.message } : null,
  });
}

/** A project named in the matrix whose job left no envelope: it failed before monitor answered. */
export function missingFacts(name: string): ProjectFacts {
  return {
    name,
    exitCode: null,
    outcome: 'missing',
    summary: null,
    findings: { error: 0, warning: 0 },
    routingGroups: 0,
    commentUrl: null,
    error: 'its job left no answer: it failed before monitor ran (see the job log)',
  };
}

/** `2 to create, 1 to update`, or `no changes`; undefined without a plan. */
export function planLine(summary: Record<string, number> | null): string | undefined {
  if (summary === null) return undefined;
  const parts = ['create', 'update', 'delete', 'adopt', 'move', 'replace']
    .filter((action) => (summary[action] ?? 0) > 0)
    .map((action) => `${summary[action]} to ${action}`);
  return parts.length === 0 ? 'no changes' : parts.join(', ');
}

const ICON: Record<ProjectFacts['outcome'], string> = {
  ok: '✅',
  changes: '📝',
  failed: '❌',
  skipped: '⏭️',
  missing: '❔',
};

function findingsCell(f: ProjectFacts['findings']): string {
  const parts = [
    ...(f.error > 0 ? [`${f.error} error${f.error === 1 ? '' : 's'}`] : []),
    ...(f.warning > 0 ? [`${f.warning} warning${f.warning === 1 ? '' : 's'}`] : []),
  ];
  return parts.length === 0 ? '—' : parts.join(', ');
}

function row(p: ProjectFacts, purpose: 'plan' | 'result'): string {
  const outcome =
    p.outcome === 'failed' ? `failed (exit ${p.exitCode})` : p.outcome === 'changes' ? 'changes' : p.outcome;
  const plan = planLine(p.summary) ?? (p.error === null ? '—' : escapeMarkdown(p.error));
  const link =
    p.commentUrl === null ? '—' : markdownLink(purpose === 'plan' ? 'plan' : 'result', p.commentUrl);
  const routing = p.routingGroups === 0 ? '—' : `${p.routingGroups} group${p.routingGroups === 1 ? '' : 's'}`;
  return `| ${ICON[p.outcome]} ${escapeMarkdown(p.name)} | ${outcome} | ${plan} | ${findingsCell(p.findings)} | ${routing} | ${link} |`;
}

/**
 * The workspace's comment: one table row per project, in the order given (dependency order), its
 * details in each project's own comment. Within `maxLength` characters: rows that do not fit are
 * counted at the end.
 */
export function workspaceMarkdown(
  purpose: 'plan' | 'result',
  projects: readonly ProjectFacts[],
  maxLength = Number.POSITIVE_INFINITY,
): string {
  const failed = projects.filter(
    (p) => p.outcome === 'failed' || p.outcome === 'missing' || p.outcome === 'skipped',
  );
  const changing = projects.filter((p) => p.summary !== null && planLine(p.summary) !== 'no changes');
  const title = purpose === 'plan' ? 'monitor plan of the workspace' : 'monitor deploy of the workspace';
  const headline = [
    `${projects.length} project${projects.length === 1 ? '' : 's'}`,
    `${changing.length} with changes`,
    ...(failed.length === 0 ? [] : [`${failed.length} failed`]),
  ].join(', ');
  const head = [
    `### ${title}`,
    '',
    `${failed.length === 0 ? '✅' : '❌'} ${headline}. Each project's own comment has its ${purpose === 'plan' ? 'plan' : 'result'} in full.`,
    '',
    '| Project | Outcome | Plan | Policy findings | Routing changes | Comment |',
    '|---|---|---|---|---|---|',
  ];
  const lines = [...head];
  let length = lines.join('\n').length;
  for (const [i, p] of projects.entries()) {
    const line = row(p, purpose);
    const rest = projects.length - i;
    const more = `…and ${rest} more project${rest === 1 ? '' : 's'} (the job log lists them all).`;
    if (length + line.length + 3 + more.length > maxLength) {
      lines.push('', more);
      return lines.join('\n');
    }
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n');
}
