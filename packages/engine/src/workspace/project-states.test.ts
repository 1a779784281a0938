import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileStateBackend } from '../state/file-store.js';
import { emptyState } from '../state/state.js';
import { entry } from '../test-support/planning.js';
import { workspaceProjectStates } from './project-states.js';

const ACCOUNT = '7a000000-0000-4000-8000-000000000001';
const root = mkdtempSync(join(tmpdir(), 'monitor-project-states-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the other projects of a workspace, through their state files', () => {
  it('reads the state of each other project in the account, never its own; a project not in the workspace is undefined', async () => {
    const platformDir = join(root, 'platform');
    const teamDir = join(root, 'team');
    const platform = new FileStateBackend(platformDir, ACCOUNT);
    await platform.commit({
      ...emptyState(ACCOUNT),
      resources: { 'AlertChannel:pd': entry('AlertChannel', 'pd', 42) },
    });
    let located = 0;
    const others = workspaceProjectStates({
      project: 'team',
      accountId: ACCOUNT,
      where: 'the workspace',
      dirs: async () => {
        located++;
        return new Map([
          ['platform', platformDir],
          ['team', teamDir],
          ['status', join(root, 'status-never-deployed')],
        ]);
      },
    });
    expect((await others.state('platform'))?.resources['AlertChannel:pd']?.physicalId).toBe(42);
    expect(await others.state('team')).toBeUndefined();
    expect(await others.state('billing')).toBeUndefined();
    // A project of the workspace that never deployed into the account: an empty state.
    expect((await others.state('status'))?.resources).toEqual({});
    expect([...(await others.all()).keys()]).toEqual(['platform', 'status']);
    // Where the projects keep their state is found once.
    expect(located).toBe(1);
  });
});
