import { type ArrayLiteralExpression, Node, type ObjectLiteralExpression } from 'ts-morph';
import type { PropValue } from '../import/values.js';

/**
 * The text of a construct file as pull edits it: what a node is written as, where lines start
 * and how they are indented, and edits as ranges of text (a member added in the style of its
 * literal, one removed with its comma and line).
 */

export interface TextChange {
  start: number;
  end: number;
  text: string;
}

/**
 * A value as TypeScript, starting at `column` of a line indented by `indent`: on one line when it
 * fits, unless `multiline` keeps the layout of the value it replaces. Undefined when a reference
 * in it has no variable here.
 */
export type Print = (
  value: PropValue,
  column: number,
  indent: string,
  multiline?: boolean,
) => string | undefined;

/** Unwraps `x as const`, `x satisfies T` and parentheses: the value written is inside. */
export function inner(node: Node): Node {
  let n = node;
  while (Node.isAsExpression(n) || Node.isSatisfiesExpression(n) || Node.isParenthesizedExpression(n))
    n = n.getExpression();
  return n;
}

/** The value of a scalar literal (a string, number, boolean or null); undefined for anything else. */
export function scalarOf(node: Node): { value: string | number | boolean | null } | undefined {
  const n = inner(node);
  if (Node.isStringLiteral(n) || Node.isNoSubstitutionTemplateLiteral(n))
    return { value: n.getLiteralText() };
  if (Node.isNumericLiteral(n)) return { value: n.getLiteralValue() };
  if (Node.isPrefixUnaryExpression(n) && Node.isNumericLiteral(n.getOperand()) && n.getText().startsWith('-'))
    return { value: -Number(n.getOperand().getText()) };
  if (Node.isTrueLiteral(n)) return { value: true };
  if (Node.isFalseLiteral(n)) return { value: false };
  if (Node.isNullLiteral(n)) return { value: null };
  return undefined;
}

/** Written as a literal: strings, numbers, booleans, null, and arrays and objects of them (and of variables, where `refs` allows). */
export function isLiteral(node: Node, refs: boolean): boolean {
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

export function propName(p: Node): string | undefined {
  if (!Node.isPropertyAssignment(p) && !Node.isShorthandPropertyAssignment(p)) return undefined;
  const name = p.getNameNode();
  if (Node.isIdentifier(name)) return name.getText();
  if (Node.isStringLiteral(name) || Node.isNoSubstitutionTemplateLiteral(name)) return name.getLiteralText();
  if (Node.isNumericLiteral(name)) return name.getText();
  return undefined;
}

/** The literal text of a key field in an object literal entry, to find a keyed list's entry. */
export function keyOf(entry: Node, keyField: string): string | undefined {
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
export function indentAt(text: string, pos: number): string {
  const lineStart = text.lastIndexOf('\n', pos - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
}

export function columnAt(text: string, pos: number): number {
  return pos - (text.lastIndexOf('\n', pos - 1) + 1);
}

/** Whether two changes write the same place (two insertions at one point do not: they go in in order). */
export function overlap(a: TextChange, b: TextChange): boolean {
  return a.start < b.end && b.start < a.end && !(a.start === a.end && b.start === b.end);
}

/** Apply non-overlapping changes from the end, so that each range is still where it was. */
export function applyChanges(text: string, changes: TextChange[]): string {
  let out = text;
  // Insertions at one place keep the order they were made in: the later one goes in first.
  const order = changes.map((c, i) => ({ c, i })).sort((a, b) => b.c.start - a.c.start || b.i - a.i);
  for (const { c } of order) out = out.slice(0, c.start) + c.text + out.slice(c.end);
  return out;
}

/** A member added at the end of an object or array literal, in the style the literal has. */
export function insertMember(
  text: string,
  list: ObjectLiteralExpression | ArrayLiteralExpression,
  prefix: string,
  value: PropValue,
  print: Print,
): TextChange | undefined {
  const members: Node[] = Node.isObjectLiteralExpression(list) ? list.getProperties() : list.getElements();
  const open = list.getStart();
  const close = list.getEnd() - 1;
  const multiline = text.slice(open, close).includes('\n');
  const lastMember = members[members.length - 1];
  if (lastMember === undefined) {
    const indent = indentAt(text, open);
    const [o, c] = Node.isObjectLiteralExpression(list) ? ['{ ', ' }'] : ['[', ']'];
    const printed = print(value, columnAt(text, open) + o.length + prefix.length, `${indent}  `);
    if (printed === undefined) return undefined;
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
  const printed = print(value, columnAt(text, end) + 2 + prefix.length, indentAt(text, open));
  if (printed === undefined) return undefined;
  return comma === null
    ? { start: end, end, text: `, ${prefix}${printed}` }
    : { start: end, end, text: ` ${prefix}${printed},` };
}

/** A member removed with its comma and the line it stood on, when it had one of its own. */
export function removeMember(text: string, member: Node): TextChange {
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
  } else {
    // One before others on its line: the space after its comma goes with it (`[a, b]` → `[b]`).
    end += /^[ \t]*/.exec(text.slice(end))?.[0].length ?? 0;
  }
  return { start, end, text: '' };
}
