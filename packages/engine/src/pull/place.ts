import * as constructs from '@monitor/constructs';
import { atPropLocation } from '../positions/prop-location.js';
import type { SourceReader } from '../positions/source-reader.js';
import type { ManualEdit, NotPulled, PlacedNotPulled, ResourcePull, RewriteContext } from './types.js';

/**
 * Where each construct to pull is edited: in the project file that makes it, or nowhere, when it
 * is made outside the project's files (a construct library): then each of its edits is left to
 * people, with the account's value.
 */
export function placeResources(
  resources: readonly ResourcePull[],
  projectFiles: readonly string[],
  display: RewriteContext['display'],
): { byFile: Map<string, ResourcePull[]>; manual: (ManualEdit & { file: string })[] } {
  const byFile = new Map<string, ResourcePull[]>();
  const manual: (ManualEdit & { file: string })[] = [];
  for (const r of resources) {
    const file = r.location?.file;
    if (file !== undefined && !file.includes('/node_modules/') && projectFiles.includes(file)) {
      byFile.set(file, [...(byFile.get(file) ?? []), r]);
      continue;
    }
    // Made in a library: nothing of the project to edit.
    for (const e of r.edits)
      manual.push({
        key: r.key,
        path: e.path,
        line: r.location?.line ?? 0,
        file: file ?? '',
        reason: 'the construct is made outside the project’s files (a library)',
        value: display(e.value),
      });
  }
  // Files in a stable order, so that the output is too.
  return { byFile: new Map([...byFile].sort(([a], [b]) => (a < b ? -1 : 1))), manual };
}

/**
 * Each change left to people at the line of the prop that holds it (a keyed list's entry at the
 * list), as the diagnostics of `validate` are: the construct's own line where the prop is not
 * written there.
 */
export function placeNotPulled(notPulled: readonly NotPulled[], sourceOf: SourceReader): PlacedNotPulled[] {
  return notPulled.map((n) => {
    if (n.location === undefined) return { ...n, file: '', line: 0 };
    const target = constructs.propOf(constructs.CONSTRUCT_SOURCES[n.kind], n.path);
    const propPath = (target?.path ?? target?.prop ?? '').replace(/\[.*$/, '');
    const at = atPropLocation(
      { severity: 'warning', path: propPath, message: '', location: n.location },
      sourceOf,
    );
    const location = at.location ?? n.location;
    return { ...n, file: location.file, line: location.line };
  });
}
