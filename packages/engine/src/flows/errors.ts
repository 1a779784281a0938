import { EngineError } from '../errors.js';

/** A filter that selects nothing it could: a kind that does not exist. Nothing was read or written. */
export class ImportFilterError extends EngineError {
  static override readonly code = 'bad_filter';
  override readonly name = 'ImportFilterError';
}

/** The generated code does not load, or not where the project looks: nothing was recorded in state. */
export class ImportFailedError extends EngineError {
  static override readonly code = 'import_failed';
  override readonly name = 'ImportFailedError';
}

/** State written against another service than the one this run talks to. */
export class WrongServiceError extends EngineError {
  static override readonly code = 'wrong_service';
  override readonly name = 'WrongServiceError';
}

/** `monitor verify` found nothing to verify by what it was asked. */
export class NothingToVerifyError extends EngineError {
  static override readonly code = 'nothing_to_verify';
  override readonly name = 'NothingToVerifyError';
}

/** An edit that would give this project a resource that another project owns. */
export class OwnedElsewhereError extends EngineError {
  static override readonly code = 'owned_elsewhere';
  override readonly name = 'OwnedElsewhereError';
}

/** An edit that names an entry the state does not have, or asks for one it cannot make. */
export class StateEditError extends EngineError {
  static override readonly code = 'state_edit';
  override readonly name = 'StateEditError';
}

/** A push of a state that moved since it was pulled, without `force`: nothing was written. */
export class StaleStateError extends EngineError {
  static override readonly code = 'stale_state';
  override readonly name = 'StaleStateError';
}

/** A check group to run has no checks: the service would run nothing for it. */
export class NoChecksError extends EngineError {
  static override readonly code = 'no_checks';
  override readonly name = 'NoChecksError';
}
