export type { AgentHealth } from './agent-health.js';
export type { EmulatorControl } from './control.js';
export {
  EmulatorConfigError,
  EmulatorDataError,
  EmulatorError,
  InvalidPortError,
  PortInUseError,
} from './errors.js';
export type { DropRule, FaultConfig, HoldRule } from './faults.js';
export type { Fixture } from './fixture.js';
export { OUTCOMES, type Outcome, type OutcomeRule } from './outcomes.js';
export { DEFAULT_RATE_LIMITS, type RateLimitConfig } from './rate-limit.js';
export { DEFAULT_REQUEST_LOG_SIZE, type RequestLogEntry } from './request-log.js';
export { agentHealthPortFor, type ServeOptions, serve } from './serve.js';
export type { AccountConfig, App } from './server.js';
export {
  DEFAULT_HISTORY_SIZE,
  DEV_ACCOUNT_ID,
  DEV_API_KEY,
  type EmulatorOptions,
  type RunningEmulator,
  startEmulator,
} from './start.js';
export { startEmulatorThread, type ThreadEmulator, type ThreadEmulatorOptions } from './thread.js';
