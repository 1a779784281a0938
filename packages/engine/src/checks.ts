// `@monitor/engine/checks`: running checks and waiting for their results alone, for the commands
// that do only that (`trigger`, `sessions wait`) without loading the engine.
export {
  type CheckSelection,
  checksOfGroups,
  isPassing,
  NoChecksError,
  triggerChecks,
  type WaitOptions,
  type WaitOutcome,
  waitForSessions,
} from './flows/trigger.js';
