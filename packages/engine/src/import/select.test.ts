import { describe, expect, it } from 'vitest';
import { ByPhysicalId } from '../identity.js';
import { emptyLive } from '../live/read-live.js';
import type { Live } from '../plan/plan.js';
import { type ImportFilters, selectImported } from './select.js';

function account(): Live {
  const live = emptyLive();
  live.CheckGroup = [
    { id: 1, name: 'Payments API', tags: ['payments', 'prod'] },
    { id: 2, name: 'Payments worker', tags: ['payments'] },
    { id: 3, name: 'Search', tags: ['search', 'prod'] },
  ];
  live.MaintenanceWindow = [{ id: 7, name: 'Payments upkeep', tags: ['payments'] }];
  return live;
}

const nobody = { has: () => false };
const chosenOf = (filters: ImportFilters) =>
  selectImported(account(), filters, nobody, new ByPhysicalId<string>()).chosen.map(
    ({ kind, r }) => `${kind}:${r.id}`,
  );

describe('selectImported', () => {
  it.each<[string, ImportFilters, string[]]>([
    ['no filter: everything', {}, ['CheckGroup:1', 'CheckGroup:2', 'CheckGroup:3', 'MaintenanceWindow:7']],
    ['a kind', { kinds: ['MaintenanceWindow'] }, ['MaintenanceWindow:7']],
    ['ids, as text', { ids: ['3', '7'] }, ['CheckGroup:3', 'MaintenanceWindow:7']],
    [
      'a name glob: * any run',
      { names: ['Payments *'] },
      ['CheckGroup:1', 'CheckGroup:2', 'MaintenanceWindow:7'],
    ],
    ['a name glob: ? one character, the whole name', { names: ['Searc?', 'Payments'] }, ['CheckGroup:3']],
    ['a glob is not a pattern: dots are dots', { names: ['Payments.API'] }, []],
    [
      'values of one flag are OR-ed',
      { tags: ['search', 'payments'] },
      ['CheckGroup:1', 'CheckGroup:2', 'CheckGroup:3', 'MaintenanceWindow:7'],
    ],
    ['flags are AND-ed', { kinds: ['CheckGroup'], tags: ['prod'], names: ['Payments*'] }, ['CheckGroup:1']],
    [
      'empty lists select everything',
      { kinds: [], tags: [], names: [], ids: [] },
      ['CheckGroup:1', 'CheckGroup:2', 'CheckGroup:3', 'MaintenanceWindow:7'],
    ],
  ])('%s', (_, filters, expected) => {
    expect(chosenOf(filters)).toEqual(expected);
  });

  it('leaves out what is owned here, and lists what another project owns with its name', () => {
    const owned = { has: (kind: string, id: string | number) => kind === 'CheckGroup' && String(id) === '1' };
    const otherOwners = new ByPhysicalId<string>().set('CheckGroup', 2, 'billing');
    const { chosen, ownedElsewhere } = selectImported(account(), { tags: ['payments'] }, owned, otherOwners);
    expect(chosen.map(({ kind, r }) => `${kind}:${r.id}`)).toEqual(['MaintenanceWindow:7']);
    expect(ownedElsewhere).toEqual([
      { kind: 'CheckGroup', physicalId: 2, name: 'Payments worker', project: 'billing' },
    ]);
  });
});
