import { describe, expect, it } from 'vitest';
import {
  AmbiguousWriteError,
  ApiError,
  ConflictError,
  errorForStatus,
  NotFoundError,
  ValidationError,
} from './errors.js';

describe('errors', () => {
  it('each class fixes its own code', () => {
    expect(new NotFoundError('gone').code).toBe('not_found');
    expect(new AmbiguousWriteError('maybe').code).toBe('ambiguous_write');
    expect(errorForStatus(409, 'taken', {})).toBeInstanceOf(ConflictError);
    expect(errorForStatus(409, 'taken', {}).code).toBe('conflict');
    expect(errorForStatus(400, 'bad', {}).code).toBe('validation');
  });

  it('are recognised by instanceof across a second copy of the package, by class', async () => {
    // A query string makes the module loader evaluate the file again: a second copy of the classes.
    // @ts-expect-error: the query string names a second copy of the same module
    const copy = (await import('./errors.js?copy')) as typeof import('./errors.js');
    expect(copy.NotFoundError).not.toBe(NotFoundError);
    const foreign = new copy.NotFoundError('gone');
    expect(foreign).toBeInstanceOf(NotFoundError);
    expect(foreign).toBeInstanceOf(ApiError);
    expect(foreign).not.toBeInstanceOf(ConflictError);
    expect(foreign).not.toBeInstanceOf(ValidationError);
    expect(new NotFoundError('x')).toBeInstanceOf(copy.ApiError);
    expect(new Error('plain')).not.toBeInstanceOf(ApiError);
    expect({ code: 'not_found' }).not.toBeInstanceOf(NotFoundError);
  });
});
