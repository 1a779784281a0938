import type { Diagnostic } from '@monitor/constructs';
import type { RouteChange, RoutingChanges } from '../routing/changes.js';
import {
  markdownCode as code,
  markdownFence,
  escapeTerminal as t,
  escapeMarkdown as text,
} from './escape.js';
import { renderRoutesMermaid } from './mermaid.js';
import type { Style } from './style.js';

/** The routing section of a plan, for people and pull requests: the groups whose route changes. */

const groups = (n: number) => `${n} group${n === 1 ? '' : 's'}`;

/** The flag names this many groups at most: a new project of 3,000 groups is counted, not listed. */
const FLAGGED_BY_NAME = 20;

/** The unrouted groups, each as `name` shows it, the ones past the limit counted. */
function unroutedList(routing: RoutingChanges, name: (c: RouteChange) => string): string {
  const unrouted = routing.changes.filter((c) => c.noFailureRoute);
  const named = unrouted.slice(0, FLAGGED_BY_NAME).map(name);
  const more = unrouted.length - named.length;
  return more > 0 ? `${named.join(', ')} and ${more} more` : named.join(', ');
}

function unroutedLine(routing: RoutingChanges, findings: readonly Diagnostic[]): string {
  return `No route for failures: once this is deployed, no one is told when the checks of ${unroutedList(routing, (c) => `${c.logicalId} (“${c.name}”)`)} fail.${withSpace(policyNote(routing, findings))}`;
}

/** The built-in policy that finds the same groups, and what it says of them (its findings are listed with the others). */
export const NO_ROUTE_POLICY = 'group-without-alert-channel';

const withSpace = (note: string) => (note === '' ? '' : ` ${note}`);

/** `Policy group-without-alert-channel: 2 warnings.`: the policy's findings on the unrouted groups. */
function policyNote(routing: RoutingChanges, findings: readonly Diagnostic[]): string {
  const unrouted = new Set(routing.unrouted);
  const found = findings.filter(
    (f) => f.policy === NO_ROUTE_POLICY && unrouted.has(`CheckGroup:${f.logicalId ?? ''}`),
  );
  if (found.length === 0) return '';
  const by = new Map<string, number>();
  for (const f of found) {
    const label = f.waived === undefined ? f.severity : `${f.waived.severity}, waived`;
    by.set(label, (by.get(label) ?? 0) + 1);
  }
  const counts = [...by].map(
    ([label, n]) => `${n} ${label}${n === 1 || label.endsWith('waived') ? '' : 's'}`,
  );
  return `Policy ${NO_ROUTE_POLICY}: ${counts.join(', ')}.`;
}

/** The flag that goes at the top of a plan: changed groups left with no route for failures. */
export function routingWarningText(
  routing: RoutingChanges | undefined,
  findings: readonly Diagnostic[],
  s: Style,
): string[] {
  if (routing === undefined || routing.unrouted.length === 0) return [];
  return [s.red(s.bold(`! ${t(unroutedLine(routing, findings))}`)), ''];
}

/** Each changed group with its route before and after, one line each. */
export function routingSectionText(routing: RoutingChanges | undefined, s: Style): string[] {
  if (routing === undefined || routing.changes.length === 0) return [];
  const out = [s.bold(`Routing: who gets paged changes for ${groups(routing.changes.length)}:`)];
  for (const c of routing.changes) {
    const flag = c.noFailureRoute ? s.red(' !') : '';
    out.push(
      `  ${s.bold(t(c.logicalId))} ${t(JSON.stringify(c.name))}${c.before === null ? s.dim(' (new)') : ''}${flag}`,
    );
    if (c.before !== null) out.push(`      before: ${s.red(t(c.before))}`);
    out.push(`      after:  ${s.green(t(c.after))}`);
  }
  out.push('');
  return out;
}

/** The flag at the top of the pull-request comment. */
export function routingWarningMarkdown(
  routing: RoutingChanges | undefined,
  findings: readonly Diagnostic[],
): string {
  if (routing === undefined || routing.unrouted.length === 0) return '';
  const items = unroutedList(routing, (c) => `${code(c.logicalId)} “${text(c.name)}”`);
  return `> [!WARNING]\n> **No route for failures:** once this is deployed, no one is told when the checks of ${items} fail.${withSpace(text(policyNote(routing, findings)))}\n\n`;
}

function changeMarkdown(c: RouteChange): string {
  const head = `- ${code(c.logicalId)} “${text(c.name)}”${c.before === null ? ' (new)' : ''}${c.noFailureRoute ? ' ⚠️' : ''}`;
  const before = c.before === null ? [] : [`  - before: ${text(c.before)}`];
  return [head, ...before, `  - after: ${text(c.after)}`].join('\n');
}

/**
 * The routing section of the pull-request comment, within `budget` characters: the groups that
 * do not fit are counted.
 */
export function routingSectionMarkdown(routing: RoutingChanges | undefined, budget: number): string {
  if (routing === undefined || routing.changes.length === 0) return '';
  const head = `#### Routing: who gets paged changes for ${groups(routing.changes.length)}\n\n`;
  let body = '';
  let shown = 0;
  for (const c of routing.changes) {
    const item = `${changeMarkdown(c)}\n`;
    if (head.length + body.length + item.length + 100 > budget) break;
    body += item;
    shown++;
  }
  const left = routing.changes.length - shown;
  const more = left === 0 ? '' : `\n_${groups(left)} more not shown: see monitor diff --json._\n`;
  const text = `${head}${body}${more}\n`;
  const picture = pictureMarkdown(routing);
  return text.length + picture.length > budget ? text : `${text}${picture}`;
}

/** The changed groups drawn before and after (GitHub and GitLab render a mermaid block), with what the lines mean. */
function pictureMarkdown(routing: RoutingChanges): string {
  if (routing.picture === undefined || routing.picture.nodes.length === 0) return '';
  const { edges } = routing.picture;
  const legend = [
    edges.some((e) => e.change === 'added') ? 'thick green: new with this plan' : '',
    edges.some((e) => e.change === 'removed') ? 'dotted red: gone with it' : '',
  ].filter((l) => l !== '');
  const note = legend.length === 0 ? '' : `_${legend.join('; ')}._\n\n`;
  return `${markdownFence('mermaid', renderRoutesMermaid(routing.picture))}\n\n${note}`;
}
