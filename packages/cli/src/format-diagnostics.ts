import { relative } from 'node:path';
import type { Diagnostic } from '@monitor/constructs';
import { escapeTerminal } from '@monitor/engine/escape';
import type { Paint } from './io.js';

/** `relative(cwd, file)`, worked out once per file: a large project's findings name each file many times. */
const relativePaths = new Map<string, string>();

function relativePath(cwd: string, file: string): string {
  const key = `${cwd}\0${file}`;
  let path = relativePaths.get(key);
  if (path === undefined) {
    path = relative(cwd, file);
    relativePaths.set(key, path);
  }
  return path;
}

function where(d: Diagnostic, cwd: string): string {
  if (d.location === undefined) return '(project)';
  return escapeTerminal(
    `${relativePath(cwd, d.location.file) || d.location.file}:${d.location.line}:${d.location.column}`,
  );
}

/**
 * `file:line:col  error  CheckGroup "payments"  locations[2]: message`, one line per diagnostic; a
 * policy finding ends with `[policy-name]`, a waived one says `waived` and the reason.
 */
export function formatDiagnostic(d: Diagnostic, cwd: string, p: Paint, verbose = false): string {
  const severity =
    d.waived !== undefined
      ? p.dim('waived')
      : d.severity === 'error'
        ? p.red('error')
        : d.severity === 'warning'
          ? p.yellow('warning')
          : p.dim('info');
  const subject = d.construct === undefined ? '' : escapeTerminal(`${d.construct} "${d.logicalId ?? ''}"  `);
  const message = escapeTerminal(d.path === '' ? d.message : `${d.path}: ${d.message}`, { multiline: true });
  const policy = d.policy === undefined ? '' : p.dim(`  [${escapeTerminal(d.policy)}]`);
  let line = `${where(d, cwd)}  ${severity}  ${p.bold(subject)}${message}${policy}`;
  if (d.waived !== undefined) {
    line += `\n    ${p.dim(`waived (${d.waived.severity}): ${escapeTerminal(d.waived.reason, { multiline: true })}`)}`;
  }
  if (d.detail !== undefined && d.detail.trim() !== '') {
    const lines = d.detail.trimEnd().split('\n');
    const shown = verbose ? lines : lines.slice(0, 6);
    line += `\n${shown.map((l) => p.dim(`    ${escapeTerminal(l.trim())}`)).join('\n')}`;
  }
  for (const caller of d.location?.callers ?? []) {
    line += `\n    ${p.dim(escapeTerminal(`called from ${relativePath(cwd, caller.file) || caller.file}:${caller.line}:${caller.column}`))}`;
  }
  if (d.hint !== undefined && d.waived === undefined)
    line += `\n    ${p.dim(`hint: ${escapeTerminal(d.hint, { multiline: true })}`)}`;
  return line;
}

/** Diagnostics as data, with file paths relative to `cwd`. */
export function diagnosticsToJson(diagnostics: Diagnostic[], cwd: string): Record<string, unknown>[] {
  return diagnostics.map((d) => ({
    severity: d.severity,
    construct: d.construct ?? null,
    logicalId: d.logicalId ?? null,
    path: d.path,
    message: d.message,
    file: d.location === undefined ? null : relativePath(cwd, d.location.file),
    line: d.location?.line ?? null,
    column: d.location?.column ?? null,
    ...(d.detail === undefined ? {} : { detail: d.detail }),
    ...(d.hint === undefined ? {} : { hint: d.hint }),
    ...(d.policy === undefined ? {} : { policy: d.policy }),
    ...(d.waived === undefined ? {} : { waived: d.waived }),
    ...(d.location?.callers === undefined || d.location.callers.length === 0
      ? {}
      : {
          calledFrom: d.location.callers.map((c) => ({
            file: relativePath(cwd, c.file),
            line: c.line,
            column: c.column,
          })),
        }),
  }));
}
