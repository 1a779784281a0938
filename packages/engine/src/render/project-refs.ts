import type { Plan, ProjectRefResolved } from '../plan/types.js';
import { markdownCode as code, escapeMarkdown as md, escapeTerminal as t } from './escape.js';
import type { Style } from './style.js';

/**
 * What a plan says of references across projects: the references of what it writes
 * (`CheckGroup payments-api → platform:pagerduty-oncall (id 42)`), uses recorded with no call,
 * and the references a `--force-orphan` delete leaves unresolved.
 */

/** `platform:pagerduty-oncall (id 42)`: a reference as the plan names it. */
export function referenceName(r: Pick<ProjectRefResolved, 'project' | 'ref' | 'physicalId'>): string {
  return `${r.project}:${r.ref.slice(r.ref.indexOf(':') + 1)} (id ${String(r.physicalId)})`;
}

/** `team-payments: CheckGroup:payments-api`, from `team-payments/CheckGroup:payments-api`. */
function useName(use: string): string {
  const slash = use.indexOf('/');
  return `${use.slice(0, slash)}: ${use.slice(slash + 1)}`;
}

export function projectRefsText(plan: Plan, s: Style): string[] {
  const out: string[] = [];
  const refs = plan.projectRefs ?? [];
  if (refs.length > 0) {
    out.push(s.bold('References to other projects (their ids, never changed here):'));
    for (const r of refs) {
      const colon = r.from.indexOf(':');
      out.push(`  ${r.from.slice(0, colon)} ${s.bold(t(r.from.slice(colon + 1)))} → ${t(referenceName(r))}`);
    }
    out.push('');
  }
  for (const o of plan.orphaned ?? []) {
    out.push(
      s.yellow(
        `! ${t(o.key)} goes although ${t(o.usedBy.map(useName).join(', '))} reference${o.usedBy.length === 1 ? 's' : ''} it (--force-orphan): those references no longer resolve.`,
      ),
    );
  }
  for (const u of plan.usesChanged ?? []) {
    out.push(
      `Recorded in state, no call: ${t(u.key)} ${u.uses.length === 0 ? 'references no other project' : `uses ${t(u.uses.join(', '))}`}`,
    );
  }
  if ((plan.orphaned?.length ?? 0) + (plan.usesChanged?.length ?? 0) > 0) out.push('');
  return out;
}

/** The references of what the plan writes, and what it orphans, for a pull-request comment; within `budget` characters. */
export function projectRefsMarkdown(plan: Plan, budget: number): string {
  let out = '';
  const orphaned = plan.orphaned ?? [];
  if (orphaned.length > 0) {
    const lines = orphaned.map(
      (o) => `> - ${code(o.key)}, referenced by ${o.usedBy.map((u) => code(useName(u))).join(', ')}`,
    );
    out += `> [!WARNING]\n> **Deleted although other projects reference it (--force-orphan):**\n${lines.join('\n')}\n\n`;
  }
  const refs = plan.projectRefs ?? [];
  if (refs.length === 0) return out;
  let part = '#### References to other projects\n\n';
  let shown = 0;
  for (const r of refs) {
    const colon = r.from.indexOf(':');
    const line = `- ${r.from.slice(0, colon)} ${code(r.from.slice(colon + 1))} → ${md(referenceName(r))}\n`;
    if (out.length + part.length + line.length > budget) break;
    part += line;
    shown++;
  }
  if (shown < refs.length) part += `- _and ${refs.length - shown} more_\n`;
  return `${out}${part}\n`;
}
