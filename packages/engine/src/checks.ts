// `@monitor/engine/checks`: running checks and waiting for their results alone, for the commands
// that do only that (`trigger`, `sessions wait`) without loading the engine.

export { NoChecksError } from './flows/errors.js';
export {
  type CheckSelection,
  checksOfGroups,
  isPassing,
  triggerChecks,
  type WaitOptions,
  type WaitOutcome,
  waitForSessions,
} from './flows/trigger.js';
