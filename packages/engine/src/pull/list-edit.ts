import { isRecord } from '@monitor/api';
import { type ArrayLiteralExpression, Node } from 'ts-morph';
import type { PropValue } from '../import/values.js';
import {
  columnAt,
  indentAt,
  insertMember,
  keyOf,
  overlap,
  type Print,
  removeMember,
  scalarOf,
  type TextChange,
} from './source-text.js';
import type { PropEdit } from './types.js';

/**
 * A list literal edited item by item into the account's list, as a person would: the code's items
 * the account still has stay where they are, byte for byte; one the account dropped gives its
 * place to one the account added (a renamed card stays where it was); the others are removed, or
 * added at the end in the list's own layout. A reviewer sees one line for a one-item change, and
 * the user's order (a set's order means nothing to the service, and it answers in its own).
 */

/** Items are the same item by their key (a keyed list's entries), else by their value. */
type Identity = string | undefined;

const normalized = (text: string) => text.replace(/\s+/g, '').replace(/,([}\]])/g, '$1');

function elementIdentity(element: Node, keyField: string | undefined): Identity {
  if (keyField !== undefined) {
    const key = keyOf(element, keyField);
    if (key !== undefined) return `k:${key}`;
  }
  const scalar = scalarOf(element);
  if (scalar !== undefined) return `v:${JSON.stringify(scalar.value)}`;
  if (Node.isSpreadElement(element)) return undefined;
  return `t:${normalized(element.getText())}`;
}

function itemIdentity(item: PropValue, keyField: string | undefined, printed: string | undefined): Identity {
  if (keyField !== undefined && isRecord(item)) {
    const key = (item as Record<string, unknown>)[keyField];
    if (typeof key === 'string' || typeof key === 'number') return `k:${String(key)}`;
  }
  if (item === null || typeof item !== 'object') return `v:${JSON.stringify(item)}`;
  return printed === undefined ? undefined : `t:${normalized(printed)}`;
}

/** What the list edit is given: the file's text, how to print a value, and how its items are told apart. */
export interface ListEditContext {
  text: string;
  print: Print;
  entries: PropEdit['entries'];
}

/**
 * The changes that turn `list` into `items`; undefined when item by item is not the way (an item
 * the code computes, an empty list, or edits that would write one place twice): then the list is
 * written again whole. `{ unprintable: true }` when an item to write refers to a resource with no
 * variable here.
 */
export function editList(
  list: ArrayLiteralExpression,
  items: readonly PropValue[],
  { text, print, entries }: ListEditContext,
): TextChange[] | { unprintable: true } | undefined {
  const elements = list.getElements();
  if (elements.length === 0) return undefined;
  const keyField = entries?.keyField;
  const printAt = (item: PropValue, element: Node) =>
    print(item, columnAt(text, element.getStart()), indentAt(text, element.getStart()));
  const printed = items.map((item) =>
    isRecord(item) || Array.isArray(item) ? printAt(item, list) : undefined,
  );
  const codeIds = elements.map((e) => elementIdentity(e, keyField));
  if (codeIds.includes(undefined)) return undefined;
  const itemIds = items.map((item, j) => itemIdentity(item, keyField, printed[j]));

  // Each code item paired with the first account item that is the same item, in order.
  const used = new Set<number>();
  const kept = new Map<number, number>();
  for (const [i, id] of codeIds.entries()) {
    const j = itemIds.findIndex((other, k) => other === id && !used.has(k));
    if (j === -1) continue;
    used.add(j);
    kept.set(i, j);
  }
  const removed = elements.flatMap((_, i) => (kept.has(i) ? [] : [i]));
  const added = items.flatMap((_, j) => (used.has(j) ? [] : [j]));
  const changedInside = new Set(entries?.changed ?? []);

  const changes: TextChange[] = [];
  const write = (item: PropValue, element: Node) => {
    const out = printAt(item, element);
    if (out === undefined) return false;
    changes.push({ start: element.getStart(), end: element.getEnd(), text: out });
    return true;
  };
  // An entry the account changed inside is written again where it is.
  for (const [i, j] of kept) {
    const key = codeIds[i]?.startsWith('k:') === true ? codeIds[i]?.slice(2) : undefined;
    if (key !== undefined && changedInside.has(key) && !write(items[j] as PropValue, elements[i] as Node))
      return { unprintable: true };
  }
  for (const [n, i] of removed.entries()) {
    const j = added[n];
    if (j === undefined) changes.push(removeMember(text, elements[i] as Node));
    else if (!write(items[j] as PropValue, elements[i] as Node)) return { unprintable: true };
  }
  for (const j of added.slice(removed.length)) {
    const change = insertMember(text, list, '', items[j] as PropValue, print);
    if (change === undefined) return { unprintable: true };
    changes.push(change);
  }
  if (changes.some((a, i) => changes.some((b, k) => k > i && overlap(a, b)))) return undefined;
  return changes;
}
