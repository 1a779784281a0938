import { describe, expect, it } from 'vitest';
import { EngineError, InvalidPlanError, InvalidStateError, ProjectLoadError } from './errors.js';
import { LockHeldError } from './state/errors.js';

describe('engine errors', () => {
  it('each class fixes its own code, and hints name no CLI flag', () => {
    expect(new InvalidStateError('x').code).toBe('invalid_state');
    expect(new ProjectLoadError('x', []).code).toBe('invalid_project');
    const locked = new LockHeldError(undefined, 'remove /tmp/x.lock if that process is gone');
    expect(locked.code).toBe('locked');
    expect(locked.hint).not.toMatch(/--/);
  });

  it('are recognised across a second copy of the package', async () => {
    // @ts-expect-error: the query string names a second copy of the same module
    const copy = (await import('./errors.js?copy')) as typeof import('./errors.js');
    const foreign = new copy.InvalidPlanError('stale');
    expect(foreign).toBeInstanceOf(InvalidPlanError);
    expect(foreign).toBeInstanceOf(EngineError);
    expect(foreign).not.toBeInstanceOf(InvalidStateError);
    expect(new Error('plain')).not.toBeInstanceOf(EngineError);
  });
});
