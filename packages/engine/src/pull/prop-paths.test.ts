import { describe, expect, it } from 'vitest';
import { outermost, stepsOf, valuesAlong } from './prop-paths.js';

describe('prop paths', () => {
  it('steps a path through fields and keyed lists’ entries, the key field from the kind', () => {
    expect(
      stepsOf('CheckGroup', 'environmentVariables[API_URL].value', 'environmentVariables[API_URL].value'),
    ).toEqual([
      { field: 'environmentVariables', entry: { key: 'API_URL', keyField: 'key' } },
      { field: 'value' },
    ]);
    // An alert channel's props are its payload's `config`: the prop path is the payload path's tail.
    expect(stepsOf('AlertChannel', 'headers[X-Team].value', 'config.headers[X-Team].value')).toEqual([
      { field: 'headers', entry: { key: 'X-Team', keyField: 'key' } },
      { field: 'value' },
    ]);
    // A path longer than its payload path, or a keyed step the kind does not key, has no steps.
    expect(stepsOf('CheckGroup', 'a.b.c', 'a')).toBeUndefined();
    expect(stepsOf('CheckGroup', 'name[x]', 'name[x]')).toBeUndefined();
  });

  it('finds the account’s value at each step, and each keyed step’s whole list', () => {
    const list = [
      { key: 'A', value: '1' },
      { key: 'B', value: '2' },
    ];
    const steps = [
      { field: 'environmentVariables', entry: { key: 'B', keyField: 'key' } },
      { field: 'value' },
    ];
    expect(valuesAlong({ environmentVariables: list }, steps)).toEqual({
      values: [{ key: 'B', value: '2' }, '2'],
      lists: [list, undefined],
    });
    expect(valuesAlong({ environmentVariables: list }, [steps[0] as never, { field: 'x' }]).values).toEqual([
      { key: 'B', value: '2' },
      undefined,
    ]);
    expect(valuesAlong({}, steps).values).toEqual([undefined, undefined]);
  });

  it('keeps the outer of two paths where one is inside the other', () => {
    expect(outermost(['a.b', 'a', 'c[x].d', 'c[x]', 'cd', 'a'])).toEqual(['a', 'cd', 'c[x]']);
  });
});
