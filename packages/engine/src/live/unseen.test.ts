import { describe, expect, it } from 'vitest';
import { entry, liveOf, stateOf } from '../test-support/planning.js';
import { emptyLive } from './read-live.js';
import { unseenSecrets } from './unseen.js';

describe('unseenSecrets', () => {
  const group = (id: number, variables: { key: string; value: string; secret: boolean }[]) => ({
    id,
    name: `G${id}`,
    environmentVariables: variables.map((v) => ({ ...v, locked: false })),
  });

  it('counts the secrets the service masks in the resources the project owns, and every secret', () => {
    const live = liveOf({
      CheckGroup: [
        group(1, [
          { key: 'TOKEN', value: '', secret: true },
          { key: 'OTHER', value: '', secret: true },
          { key: 'URL', value: 'https://a.example', secret: false },
        ]),
        // Not the project's: not counted.
        group(2, [{ key: 'TOKEN', value: '', secret: true }]),
      ],
      AlertChannel: [{ id: 7, type: 'SLACK', config: { url: 'https://hooks.slack.com/x' } }],
    });
    const state = stateOf([entry('CheckGroup', 'g', 1), entry('AlertChannel', 'slack', 7)]);
    expect(unseenSecrets(state, live, true)).toEqual({ masked: 2, secrets: 3, keyed: true });
    expect(unseenSecrets(state, emptyLive(), false)).toEqual({ masked: 0, secrets: 0, keyed: false });
  });
});
