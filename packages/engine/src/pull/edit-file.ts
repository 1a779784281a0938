import { relative } from 'node:path';
import { createTwoFilesPatch } from 'diff/lib/patch/create.js';
import { PullFailedError, PullSyntaxError } from './errors.js';
import type { ManualEdit, PulledEdit, PulledFile, ResourcePull, RewriteContext } from './types.js';

/** The rewriter, with ts-morph: loaded only by pull, not by every command that loads the engine. */
export type Rewriter = Pick<typeof import('./rewrite.js'), 'rewriteFile' | 'syntaxErrors'>;

export interface FileEdit {
  pulled: (PulledEdit & { file: string })[];
  manual: (ManualEdit & { file: string })[];
  /** The file rewritten, when anything in it changed. */
  edited?: PulledFile;
}

/** One construct file rewritten: refused when it does not parse, before or after. */
export function editProjectFile(
  { rewriteFile, syntaxErrors }: Rewriter,
  projectDir: string,
  file: string,
  before: string,
  resources: ResourcePull[],
  ctx: RewriteContext,
): FileEdit {
  const name = relative(projectDir, file);
  const errors = syntaxErrors(file, before);
  if (errors.length > 0)
    throw new PullSyntaxError(
      `${name} does not parse: ${errors[0]}`,
      'fix the file (monitor validate shows where), then pull again',
    );
  const rewritten = rewriteFile(file, before, resources, ctx);
  const pulled = rewritten.pulled.map((p) => ({ ...p, file }));
  const manual = rewritten.manual.map((m) => ({ ...m, file }));
  if (rewritten.text === before) return { pulled, manual };
  const afterErrors = syntaxErrors(file, rewritten.text);
  if (afterErrors.length > 0)
    throw new PullFailedError(
      `pull would leave ${name} unparsable (${afterErrors[0]}); nothing was written`,
      'please report this with the file; meanwhile edit by hand (monitor diff shows the values)',
    );
  // Without the `===` line the diff package starts with: as git prints it.
  const patch = createTwoFilesPatch(`a/${name}`, `b/${name}`, before, rewritten.text, '', '', {
    context: 3,
  }).replace(/^=+\n/, '');
  return { pulled, manual, edited: { file, before, after: rewritten.text, patch } };
}
