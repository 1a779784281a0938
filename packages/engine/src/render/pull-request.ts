import type { PullResult } from '../flows/pull.js';
import type { Change } from '../plan/diff.js';
import type { Operation } from '../plan/types.js';
import { stateKey } from '../state/state.js';
import { markdownCode as code, escapeMarkdown as text } from './escape.js';
import { GITHUB_COMMENT_LIMIT, type MarkdownOptions, markdownHeading } from './markdown.js';
import { maskedPhone, maskPhones, planPhoneNumbers } from './phone.js';
import { formatValue } from './render.js';

/**
 * The body of the pull request `monitor pull --pr` keeps: each field it pulled into the code with
 * the code's old value and the account's new one, what is left to change by hand (with its
 * `file:line`), and what it never pulls (secrets, fields the code changed too). Account text is
 * escaped as in every comment; secrets are never shown, phone numbers are masked.
 */

/** Why a change is not pulled, for people: the same words as `monitor pull` prints. */
export const NOT_PULLED_REASONS = {
  secret: 'a secret is never written into code: change it where the code reads it',
  'code-changed':
    "changed in the code as well since the last deploy: the code's value stays (a deploy writes it); edit by hand to keep the account's",
  'no-prop': 'no prop holds it',
} as const;

type PullFindings = Pick<PullResult, 'plan' | 'resources' | 'pulled' | 'manual' | 'notPulled'>;

export interface PullRequestMarkdownOptions
  extends Pick<MarkdownOptions, 'project' | 'environment' | 'account' | 'local'> {
  /** @default GITHUB_COMMENT_LIMIT */
  maxLength?: number;
  /** A file as the pull request shows it (relative to the repository); @default as it is */
  fileName?: (file: string) => string;
}

/** A value in a line of the body: at most this long, then cut with `…` (the branch's diff has it whole). */
const VALUE_LENGTH = 300;
/** What the line that counts the items left out may take. */
const MORE_LINE = 120;

function value(v: unknown): string {
  const shown = formatValue(v);
  return code(shown.length > VALUE_LENGTH ? `${shown.slice(0, VALUE_LENGTH - 1)}…` : shown);
}

/** `CheckGroup `payments``: a construct by its state key (`Kind:logicalId`). */
function construct(key: string): string {
  const at = key.indexOf(':');
  return at < 0 ? code(key) : `${key.slice(0, at)} ${code(key.slice(at + 1))}`;
}

function place(file: string, line: number, fileName: (file: string) => string): string {
  return file === '' ? '' : ` at ${code(`${fileName(file)}:${line}`)}`;
}

/** `code's value → account's value`; a secret is never shown. */
function change(c: Change): string {
  if (c.sensitive === true) return 'a secret (not shown)';
  // The plan's `before` is the account's value, its `after` the code's.
  return `${value(c.after)} → ${value(c.before)}`;
}

/** One line per field pulled: its construct, its prop, where, and each change it brings back. */
function pulledLines(findings: PullFindings, fileName: (file: string) => string): string[] {
  const updates = new Map<string, Operation>();
  for (const op of findings.plan.operations)
    if (op.action === 'update') updates.set(stateKey(op.kind, op.logicalId), op);
  return findings.pulled.map((p) => {
    const edit = findings.resources.find((r) => r.key === p.key)?.edits.find((e) => e.path === p.path);
    const op = updates.get(p.key);
    const changes =
      op?.action === 'update' ? op.changes.filter((c) => edit?.changes.includes(c.path) === true) : [];
    const head = `- ${construct(p.key)} ${code(p.path)}${place(p.file, p.line, fileName)}`;
    const [only] = changes;
    if (changes.length === 1 && only !== undefined && only.path === p.path) return `${head}: ${change(only)}`;
    return [head, ...changes.map((c) => `  - ${code(c.path)}: ${change(c)}`)].join('\n');
  });
}

function manualLines(findings: PullFindings, fileName: (file: string) => string): string[] {
  return findings.manual.map(
    (m) =>
      `- ${construct(m.key)} ${code(m.path)}${place(m.file, m.line, fileName)}: ${text(m.reason)}; the account has ${m.value === undefined ? 'nothing (remove it)' : value(m.value)}`,
  );
}

function notPulledLines(findings: PullFindings, fileName: (file: string) => string): string[] {
  return findings.notPulled.map(
    (n) =>
      `- ${construct(n.key)} ${code(n.path)}${place(n.file, n.line, fileName)}: ${NOT_PULLED_REASONS[n.reason]}`,
  );
}

/** A section's items within `budget` characters, and a line for those left out. */
function section(title: string, intro: string, items: string[], budget: number): string {
  if (items.length === 0) return '';
  let out = `#### ${title} (${items.length})\n\n${intro === '' ? '' : `${intro}\n\n`}`;
  let shown = 0;
  for (const [i, item] of items.entries()) {
    const reserve = i === items.length - 1 ? 0 : MORE_LINE;
    if (out.length + item.length + 1 + reserve > budget) break;
    out += `${item}\n`;
    shown++;
  }
  if (shown < items.length)
    out += `- … and ${items.length - shown} more: the diff of this pull request has every edit\n`;
  return `${out}\n`;
}

const ABOUT =
  "These fields were changed outside monitor (in the UI or by API). This pull request writes the account's values into the code, so that the next deploy keeps them instead of undoing them. Merge it to keep them; to undo them instead, close it and run `monitor deploy`.";
const FOOTER =
  '<sub>Kept by `monitor pull --pr`: it updates this pull request while the account differs from the code, and closes it once they agree.</sub>\n';

/** The sections `pull` leaves to people, for the pull request or the drift issue. */
export function pullLeftMarkdown(
  findings: PullFindings,
  options: { maxLength: number; fileName?: (file: string) => string },
): string {
  const fileName = options.fileName ?? ((file: string) => file);
  const manual = section(
    'To change by hand',
    'The code computes these values (a variable, a call, a helper or a library): pull does not rewrite them.',
    manualLines(findings, fileName),
    options.maxLength,
  );
  const notPulled = section(
    'Not pulled',
    '',
    notPulledLines(findings, fileName),
    Math.max(0, options.maxLength - manual.length),
  );
  return `${manual}${notPulled}`;
}

/** The pull request's body, within `maxLength` characters. */
export function renderPullRequestMarkdown(
  findings: PullFindings,
  options: PullRequestMarkdownOptions,
): string {
  const max = options.maxLength ?? GITHUB_COMMENT_LIMIT;
  const fileName = options.fileName ?? ((file: string) => file);
  const head = `${markdownHeading('pull', options)}\n\n${ABOUT}\n\n`;
  const left = () => max - head.length - FOOTER.length;
  // What is left to people is short and must not be crowded out: it goes first into the budget.
  const rest = pullLeftMarkdown(findings, { maxLength: Math.floor(left() / 2), fileName });
  const pulled = section('Pulled into the code', '', pulledLines(findings, fileName), left() - rest.length);
  return maskPhonesInMarkdown(`${head}${pulled}${rest}${FOOTER}`, planPhoneNumbers(findings.plan));
}

/** Phone numbers masked as written and as escaped, as the plan's markdown masks them. */
function maskPhonesInMarkdown(markdown: string, numbers: ReadonlySet<string>): string {
  if (numbers.size === 0) return markdown;
  let out = maskPhones(markdown, numbers);
  for (const number of numbers) out = out.split(text(number)).join(text(maskedPhone(number)));
  return out;
}
