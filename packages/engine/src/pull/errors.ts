import { EngineError } from '../errors.js';

/** A construct file pull would have to edit but cannot parse. */
export class PullSyntaxError extends EngineError {
  static override readonly code = 'syntax_error';
  override readonly name = 'PullSyntaxError';
}

/** An edit that would break the file it edits: nothing is written. */
export class PullFailedError extends EngineError {
  static override readonly code = 'pull_failed';
  override readonly name = 'PullFailedError';
}
