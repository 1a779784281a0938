import {
  type ArrayLiteralExpression,
  Node,
  type ObjectLiteralExpression,
  Project,
  SyntaxKind,
  ts,
} from 'ts-morph';
import { printPropValue } from '../import/codegen.js';
import type { PropValue } from '../import/values.js';
import { holdsRef, holdsSecret } from './holds.js';
import { editList } from './list-edit.js';
import {
  applyChanges,
  columnAt,
  indentAt,
  inner,
  insertMember,
  isLiteral,
  keyOf,
  overlap,
  type Print,
  propName,
  removeMember,
  type TextChange,
} from './source-text.js';
import type {
  ManualEdit,
  ObjectFinder,
  PropEdit,
  PulledEdit,
  ResourcePull,
  RewriteContext,
} from './types.js';

/**
 * `monitor pull`, the writing half: the props of each construct's own `new X('id', { … })` edited
 * in place, as text. Only the ranges of the edited values change: formatting, comments and every
 * other line of the file stay byte for byte. A value the code computes (a variable, a call, a
 * spread, a helper shared by several constructs) is not rewritten but reported, with its line.
 */

export interface RewriteResult {
  text: string;
  pulled: PulledEdit[];
  manual: ManualEdit[];
}

/** The `new X('id', …)` of a resource: at its line, with its logical id as the first argument. */
function findNew(file: ReturnType<Project['createSourceFile']>, resource: ResourcePull): Node | undefined {
  const line = resource.location?.line;
  if (line === undefined) return undefined;
  const candidates = file
    .getDescendantsOfKind(SyntaxKind.NewExpression)
    .filter((n) => n.getStartLineNumber() === line);
  const byId = candidates.find((n) => {
    const first = n.getArguments()[0];
    return first !== undefined && (Node.isStringLiteral(first) || Node.isNoSubstitutionTemplateLiteral(first))
      ? first.getLiteralText() === resource.logicalId
      : false;
  });
  return byId ?? (candidates.length === 1 ? candidates[0] : undefined);
}

/** Every top-level name the file declares or imports. */
function namesOf(file: ReturnType<Project['createSourceFile']>): Set<string> {
  const names = new Set<string>();
  for (const d of file.getVariableDeclarations()) names.add(d.getName());
  for (const i of file.getImportDeclarations()) {
    for (const n of i.getNamedImports()) names.add((n.getAliasNode() ?? n.getNameNode()).getText());
    const d = i.getDefaultImport();
    if (d !== undefined) names.add(d.getText());
  }
  return names;
}

/** Errors of syntax in a text, as the TypeScript parser finds them. */
export function syntaxErrors(fileName: string, text: string): string[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const diagnostics = (sf as unknown as { parseDiagnostics?: ts.Diagnostic[] }).parseDiagnostics ?? [];
  return diagnostics.map((d) => {
    const { line, character } = sf.getLineAndCharacterOfPosition(d.start ?? 0);
    return `${line + 1}:${character + 1} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

/** Edit the constructs of one file. `text` must parse (check with `syntaxErrors` first). */
export function rewriteFile(
  fileName: string,
  text: string,
  resources: readonly ResourcePull[],
  ctx: RewriteContext,
): RewriteResult {
  const project = new Project({ useInMemoryFileSystem: true });
  const file = project.createSourceFile(fileName.endsWith('.ts') ? fileName : `${fileName}.ts`, text);
  const finder: ObjectFinder = { names: namesOf(file) };
  const changes: TextChange[] = [];
  /** An edit's changes, unless one overlaps one already made (two edits of one place): then false. */
  const push = (made: TextChange[]) => {
    if (made.some((change) => changes.some((c) => overlap(change, c)))) return false;
    changes.push(...made);
    return true;
  };
  const pulled: PulledEdit[] = [];
  const manual: ManualEdit[] = [];
  const lineOf = (pos: number) => file.getLineAndColumnAtPos(pos).line;

  for (const resource of resources) {
    const at = resource.location?.line ?? 1;
    const leave = (edit: PropEdit, line: number, reason: string) =>
      manual.push({ key: resource.key, path: edit.path, line, reason, value: ctx.display(edit.value) });
    const call = findNew(file, resource);
    if (call === undefined || !Node.isNewExpression(call)) {
      for (const e of resource.edits) leave(e, at, 'the construct is not made here with new');
      continue;
    }
    if (ctx.shared(resource)) {
      for (const e of resource.edits) leave(e, at, 'the construct is made by code that makes others too');
      continue;
    }
    const propsArg = call.getArguments()[1];
    const props = propsArg === undefined ? undefined : inner(propsArg);
    if (props === undefined || !Node.isObjectLiteralExpression(props)) {
      for (const e of resource.edits) leave(e, at, 'the props are not written as an object here');
      continue;
    }

    const added = new Set<string>();
    for (const edit of resource.edits) {
      const outcome = editProps(props, edit, {
        added,
        text: file.getFullText(),
        lineOf,
        print: (value, column, indent, multiline) => {
          let unresolved = false;
          const printed = printPropValue(value, {
            indent,
            // Past any line's end: written one item per line, as the value it replaces was.
            column: multiline === true ? Number.POSITIVE_INFINITY : column,
            tail: 1,
            variableOf: (kind, id) => {
              const v = ctx.variableOf(finder, kind, id);
              if (v === undefined) unresolved = true;
              return v;
            },
          });
          return unresolved ? undefined : printed;
        },
      });
      if ('reason' in outcome) leave(edit, outcome.line, outcome.reason);
      else if (!push(outcome.changes ?? [])) leave(edit, outcome.line, 'another edit writes the same place');
      else pulled.push({ key: resource.key, path: edit.path, line: outcome.line });
    }
  }
  return { text: applyChanges(text, changes), pulled, manual };
}

/** What one edit comes to: changes of the text, nothing to do, or a reason to leave it to people. */
type Outcome = { changes?: TextChange[]; line: number } | { reason: string; line: number };

const COMPUTED = 'its value is computed, not written as a literal';
const NO_VARIABLE = 'it refers to a resource with no variable in this file';
const SECRET = 'it holds a secret, which is never written into code';

/**
 * One edit in a construct's props: down its steps through object literals (and keyed lists'
 * entries), then the value there replaced, added or removed.
 */
function editProps(
  props: ObjectLiteralExpression,
  edit: PropEdit,
  io: {
    text: string;
    lineOf: (pos: number) => number;
    print: Print;
    /** Props added to an object so far (`start:field`): one added whole covers every edit under it. */
    added: Set<string>;
  },
): Outcome {
  // Variables are written where the prop refers to constructs; elsewhere a variable is computed.
  const refs = edit.references || holdsRef(edit.value);
  const { text, lineOf, print } = io;
  const replace = (node: Node, value: PropValue, indentFrom: Node): Outcome => {
    const pos = node.getStart();
    if (!isLiteral(node, refs)) return { reason: COMPUTED, line: lineOf(pos) };
    if (holdsSecret(value)) return { reason: SECRET, line: lineOf(pos) };
    if (Node.isArrayLiteralExpression(node) && Array.isArray(value)) {
      const listed = editList(node, value, { text, print, entries: edit.entries });
      if (Array.isArray(listed)) return { changes: listed, line: lineOf(pos) };
      if (listed !== undefined) return { reason: NO_VARIABLE, line: lineOf(pos) };
    }
    const multiline = node.getText().includes('\n');
    const printed = print(value, columnAt(text, pos), indentAt(text, indentFrom.getStart()), multiline);
    if (printed === undefined) return { reason: NO_VARIABLE, line: lineOf(pos) };
    return { changes: [{ start: pos, end: node.getEnd(), text: printed }], line: lineOf(pos) };
  };
  const add = (list: ObjectLiteralExpression | ArrayLiteralExpression, prefix: string, value: PropValue) => {
    if (holdsSecret(value)) return { reason: SECRET, line: lineOf(list.getStart()) };
    const change = insertMember(text, list, prefix, value, print);
    return change === undefined
      ? { reason: NO_VARIABLE, line: lineOf(list.getStart()) }
      : { changes: [change], line: lineOf(list.getStart()) };
  };

  let holder: ObjectLiteralExpression = props;
  for (const [i, step] of edit.steps.entries()) {
    const last = i === edit.steps.length - 1;
    const here = edit.valuesAlong[i];
    const property = holder.getProperties().find((p) => propName(p) === step.field);
    if (property === undefined) {
      if (holder.getProperties().some((p) => Node.isSpreadAssignment(p)))
        return { reason: 'it may come from a spread', line: lineOf(holder.getStart()) };
      // Not written: added with the account's value from here down (a keyed list whole), once.
      const adding = step.entry === undefined ? here : edit.listsAlong[i];
      const place = `${holder.getStart()}:${step.field}`;
      if (adding === undefined || io.added.has(place)) return { line: lineOf(holder.getStart()) };
      const outcome = add(holder, `${step.field}: `, adding);
      if ('changes' in outcome) io.added.add(place);
      return outcome;
    }
    if (!Node.isPropertyAssignment(property))
      return { reason: 'written as a variable', line: lineOf(property.getStart()) };
    const value = inner(property.getInitializerOrThrow());

    if (step.entry === undefined) {
      if (last || !Node.isObjectLiteralExpression(value)) {
        if (here === undefined)
          return { changes: [removeMember(text, property)], line: lineOf(property.getStart()) };
        return replace(value, here, property);
      }
      holder = value;
      continue;
    }

    // A keyed list's entry, found by the literal of its key field.
    if (!Node.isArrayLiteralExpression(value)) return { reason: COMPUTED, line: lineOf(value.getStart()) };
    const { key, keyField } = step.entry;
    const entries = value.getElements();
    const element = entries.find((e) => keyOf(e, keyField) === key);
    if (element === undefined) {
      if (entries.some((e) => keyOf(e, keyField) === undefined))
        return {
          reason: 'its entries are computed, not written as literals',
          line: lineOf(value.getStart()),
        };
      return here === undefined ? { line: lineOf(value.getStart()) } : add(value, '', here);
    }
    if (here === undefined)
      return { changes: [removeMember(text, element)], line: lineOf(element.getStart()) };
    const entry = inner(element);
    if (last || !Node.isObjectLiteralExpression(entry)) return replace(entry, here, element);
    holder = entry;
  }
  return { reason: 'not found in the props', line: lineOf(props.getStart()) };
}
