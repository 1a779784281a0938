import type { ResourceKind } from '@monitor/api';
import { describe, expect, it } from 'vitest';
import { ByPhysicalId, type PhysicalId } from './identity.js';

describe('ByPhysicalId', () => {
  it('finds a resource by kind and id, ids compared as text', () => {
    const index = new ByPhysicalId<string>().set('CheckGroup', 42, 'group').set('Dashboard', '42', 'board');
    expect(index.tryFind('CheckGroup', '42')).toBe('group');
    expect(index.find('Dashboard', 42)).toBe('board');
    expect(index.tryFind('AlertChannel', 42)).toBeUndefined();
    expect(index.has('CheckGroup', 42)).toBe(true);
    expect(index.has('StatusPage', 42)).toBe(false);
    expect(() => index.find('StatusPage', 'x')).toThrow('no StatusPage with id x in this index');
  });

  it('gives the values in the order each resource was first set; a later value replaces it in place', () => {
    type Item = [ResourceKind, PhysicalId, string];
    const items: Item[] = [
      ['CheckGroup', 1, 'a'],
      ['Dashboard', 'd', 'b'],
      ['CheckGroup', 2, 'c'],
      ['CheckGroup', '1', 'a again'],
    ];
    const index = ByPhysicalId.of(items, ([kind, id]) => [kind, id]);
    expect([...index.values()].map(([, , v]) => v)).toEqual(['a again', 'b', 'c']);
    expect(index.size).toBe(3);
    expect(index.delete('Dashboard', 'd')).toBe(true);
    expect(index.delete('Dashboard', 'd')).toBe(false);
    expect([...index.values()].map(([, , v]) => v)).toEqual(['a again', 'c']);
    index.set('Dashboard', 'd', ['Dashboard', 'd', 'back']);
    expect([...index.values()].map(([, , v]) => v)).toEqual(['a again', 'c', 'back']);
  });
});
