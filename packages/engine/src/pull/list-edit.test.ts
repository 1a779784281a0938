import { sourceRef } from '@monitor/constructs';
import { type ArrayLiteralExpression, Project, SyntaxKind } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import type { PropValue } from '../import/values.js';
import { editList } from './list-edit.js';
import { applyChanges, type Print } from './source-text.js';

/** The first array literal of `text`, edited into `items`: the text after, or what editList answered. */
function edited(text: string, items: PropValue[], entries?: { keyField: string; changed: string[] }) {
  const file = new Project({ useInMemoryFileSystem: true }).createSourceFile('a.ts', text);
  const list = file.getFirstDescendantByKindOrThrow(
    SyntaxKind.ArrayLiteralExpression,
  ) as ArrayLiteralExpression;
  const print: Print = (value) =>
    typeof value === 'object' && value !== null && 'physicalId' in value
      ? value.physicalId === 7
        ? 'oncall'
        : undefined
      : JSON.stringify(value).replaceAll('"', "'");
  const out = editList(list, items, { text, print, entries });
  return Array.isArray(out) ? applyChanges(text, out) : out;
}

describe('editList', () => {
  it('keeps the items the account still has, gives a dropped item’s place to an added one, adds the rest at the end', () => {
    expect(edited(`x = ['a', 'b', 'c'];`, ['c', 'a', 'd', 'e'])).toBe(`x = ['a', 'd', 'c', 'e'];`);
    expect(edited(`x = ['a', "b"];`, ['b', 'a'])).toBe(`x = ['a', "b"];`);
    expect(edited(`x = [oncall];`, [sourceRef('AlertChannel', 7)])).toBe('x = [oncall];');
  });

  it('goes whole where item by item is not the way: an empty list, overlapping removals', () => {
    expect(edited('x = [];', ['a'])).toBeUndefined();
    expect(edited(`x = ['a', 'b', 'c'];`, ['a'])).toBeUndefined();
  });

  it('an item to write that refers to a resource with no variable here cannot be written', () => {
    expect(edited('x = [oncall];', [sourceRef('AlertChannel', 7), sourceRef('AlertChannel', 8)])).toEqual({
      unprintable: true,
    });
  });
});
