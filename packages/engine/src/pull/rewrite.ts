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

interface TextChange {
  start: number;
  end: number;
  text: string;
}

/** Unwraps `x as const`, `x satisfies T` and parentheses: the value written is inside. */
function inner(node: Node): Node {
  let n = node;
  while (Node.isAsExpression(n) || Node.isSatisfiesExpression(n) || Node.isParenthesizedExpression(n))
    n = n.getExpression();
  return n;
}

/** Written as a literal: strings, numbers, booleans, null, and arrays and objects of them (and of variables, where `refs` allows). */
function isLiteral(node: Node, refs: boolean): boolean {
  const n = inner(node);
  if (
    Node.isStringLiteral(n) ||
    Node.isNoSubstitutionTemplateLiteral(n) ||
    Node.isNumericLiteral(n) ||
    Node.isTrueLiteral(n) ||
    Node.isFalseLiteral(n) ||
    Node.isNullLiteral(n)
  )
    return true;
  if (Node.isPrefixUnaryExpression(n)) return Node.isNumericLiteral(n.getOperand());
  if (Node.isIdentifier(n)) return refs && n.getText() !== 'undefined';
  if (Node.isArrayLiteralExpression(n)) return n.getElements().every((e) => isLiteral(e, refs));
  if (Node.isObjectLiteralExpression(n))
    return n
      .getProperties()
      .every(
        (p) =>
          Node.isPropertyAssignment(p) &&
          !Node.isComputedPropertyName(p.getNameNode()) &&
          isLiteral(p.getInitializerOrThrow(), refs),
      );
  return false;
}

function propName(p: Node): string | undefined {
  if (!Node.isPropertyAssignment(p) && !Node.isShorthandPropertyAssignment(p)) return undefined;
  const name = p.getNameNode();
  if (Node.isIdentifier(name)) return name.getText();
  if (Node.isStringLiteral(name) || Node.isNoSubstitutionTemplateLiteral(name)) return name.getLiteralText();
  if (Node.isNumericLiteral(name)) return name.getText();
  return undefined;
}

/** The literal text of a key field in an object literal entry, to find a keyed list's entry. */
function keyOf(entry: Node, keyField: string): string | undefined {
  const n = inner(entry);
  if (!Node.isObjectLiteralExpression(n)) return undefined;
  const p = n.getProperties().find((q) => propName(q) === keyField);
  if (p === undefined || !Node.isPropertyAssignment(p)) return undefined;
  const v = inner(p.getInitializerOrThrow());
  if (Node.isStringLiteral(v) || Node.isNoSubstitutionTemplateLiteral(v)) return v.getLiteralText();
  if (Node.isNumericLiteral(v)) return v.getText();
  return undefined;
}

/** The whitespace a line starts with. */
function indentAt(text: string, pos: number): string {
  const lineStart = text.lastIndexOf('\n', pos - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
}

function columnAt(text: string, pos: number): number {
  return pos - (text.lastIndexOf('\n', pos - 1) + 1);
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

/** Apply non-overlapping changes from the end, so that each range is still where it was. */
function applyChanges(text: string, changes: TextChange[]): string {
  let out = text;
  // Insertions at one place keep the order they were made in: the later one goes in first.
  const order = changes.map((c, i) => ({ c, i })).sort((a, b) => b.c.start - a.c.start || b.i - a.i);
  for (const { c } of order) out = out.slice(0, c.start) + c.text + out.slice(c.end);
  return out;
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
  /** A change, unless it overlaps one already made (two edits of one place): then false. */
  const push = (change: TextChange) => {
    const overlaps = changes.some(
      (c) =>
        change.start < c.end && c.start < change.end && !(c.start === c.end && change.start === change.end),
    );
    if (overlaps) return false;
    changes.push(change);
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
        print: (value, pos, indent) => {
          let unresolved = false;
          const printed = printPropValue(value, {
            indent,
            column: columnAt(file.getFullText(), pos),
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
      else if (outcome.change !== undefined && !push(outcome.change))
        leave(edit, outcome.line, 'another edit writes the same place');
      else pulled.push({ key: resource.key, path: edit.path, line: outcome.line });
    }
  }
  return { text: applyChanges(text, changes), pulled, manual };
}

type Print = (value: PropValue, pos: number, indent: string) => string | undefined;

/** What one edit comes to: a change of the text, nothing to do, or a reason to leave it to people. */
type Outcome = { change?: TextChange; line: number } | { reason: string; line: number };

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
    const printed = print(value, pos, indentAt(text, indentFrom.getStart()));
    if (printed === undefined) return { reason: NO_VARIABLE, line: lineOf(pos) };
    return { change: { start: pos, end: node.getEnd(), text: printed }, line: lineOf(pos) };
  };
  const add = (list: ObjectLiteralExpression | ArrayLiteralExpression, prefix: string, value: PropValue) => {
    if (holdsSecret(value)) return { reason: SECRET, line: lineOf(list.getStart()) };
    const change = insertMember(text, list, prefix, value, print);
    return change === undefined
      ? { reason: NO_VARIABLE, line: lineOf(list.getStart()) }
      : { change, line: lineOf(list.getStart()) };
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
      if ('change' in outcome) io.added.add(place);
      return outcome;
    }
    if (!Node.isPropertyAssignment(property))
      return { reason: 'written as a variable', line: lineOf(property.getStart()) };
    const value = inner(property.getInitializerOrThrow());

    if (step.entry === undefined) {
      if (last || !Node.isObjectLiteralExpression(value)) {
        if (here === undefined)
          return { change: removeMember(text, property), line: lineOf(property.getStart()) };
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
    if (here === undefined) return { change: removeMember(text, element), line: lineOf(element.getStart()) };
    const entry = inner(element);
    if (last || !Node.isObjectLiteralExpression(entry)) return replace(entry, here, element);
    holder = entry;
  }
  return { reason: 'not found in the props', line: lineOf(props.getStart()) };
}

/** A member added at the end of an object or array literal, in the style the literal has. */
function insertMember(
  text: string,
  list: ObjectLiteralExpression | ArrayLiteralExpression,
  prefix: string,
  value: PropValue,
  print: (value: PropValue, pos: number, indent: string) => string | undefined,
): TextChange | undefined {
  const members: Node[] = Node.isObjectLiteralExpression(list) ? list.getProperties() : list.getElements();
  const open = list.getStart();
  const close = list.getEnd() - 1;
  const multiline = text.slice(open, close).includes('\n');
  const lastMember = members[members.length - 1];
  if (lastMember === undefined) {
    const indent = indentAt(text, open);
    const printed = print(value, open + 2 + prefix.length, `${indent}  `);
    if (printed === undefined) return undefined;
    const [o, c] = Node.isObjectLiteralExpression(list) ? ['{ ', ' }'] : ['[', ']'];
    return { start: open, end: close + 1, text: `${o}${prefix}${printed}${c}` };
  }
  // After the last member and its comma, if it has one.
  let end = lastMember.getEnd();
  const comma = /^\s*,/.exec(text.slice(end));
  if (comma !== null) end += comma[0].length;
  if (multiline) {
    const indent = indentAt(text, lastMember.getStart());
    const printed = print(value, indent.length + prefix.length, indent);
    if (printed === undefined) return undefined;
    if (comma === null) return { start: end, end, text: `,\n${indent}${prefix}${printed}` };
    // At the start of the closing line, so that removing the last member does not overlap it.
    const closingLine = text.lastIndexOf('\n', close) + 1;
    if (closingLine > end && text.slice(closingLine, close).trim() === '')
      return { start: closingLine, end: closingLine, text: `${indent}${prefix}${printed},\n` };
    return { start: end, end, text: `\n${indent}${prefix}${printed},` };
  }
  const printed = print(value, end + 2 + prefix.length, indentAt(text, open));
  if (printed === undefined) return undefined;
  return comma === null
    ? { start: end, end, text: `, ${prefix}${printed}` }
    : { start: end, end, text: ` ${prefix}${printed},` };
}

/** A member removed with its comma and the line it stood on, when it had one of its own. */
function removeMember(text: string, member: Node): TextChange {
  let start = member.getStart();
  let end = member.getEnd();
  const comma = /^\s*,/.exec(text.slice(end));
  if (comma !== null) end += comma[0].length;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const lineEnd = text.indexOf('\n', end);
  if (
    text.slice(lineStart, start).trim() === '' &&
    text.slice(end, lineEnd === -1 ? text.length : lineEnd).trim() === ''
  ) {
    start = lineStart;
    end = lineEnd === -1 ? text.length : lineEnd + 1;
  } else if (comma === null) {
    // The last one on a shared line: its comma is the one before it.
    const before = /,\s*$/.exec(text.slice(0, start));
    if (before !== null) start -= before[0].length;
  }
  return { start, end, text: '' };
}
