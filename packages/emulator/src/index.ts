export type { AgentHealth } from './agent-health.js';
export { EmulatorClock } from './clock.js';
export {
  EmulatorConfigError,
  EmulatorDataError,
  EmulatorError,
  InvalidPortError,
  PortInUseError,
} from './errors.js';
export type { DropRule, FaultConfig, HoldRule } from './faults.js';
export { applyFixture, DEFAULT_FIXTURE_PATH, type Fixture, fixtureSchema, readFixture } from './fixture.js';
export { faultConfigSchema, INTROSPECTION_PREFIX } from './introspection.js';
export { openApiDocument, swaggerDocument } from './openapi.js';
export { DEFAULT_RATE_LIMITS, type RateLimitConfig } from './rate-limit.js';
export { type ServeOptions, serve } from './serve.js';
export type { AccountConfig, App, RequestLogEntry } from './server.js';
export {
  DEV_ACCOUNT_ID,
  DEV_API_KEY,
  type EmulatorOptions,
  type RunningEmulator,
  startEmulator,
} from './start.js';
export { Store, type StoreData } from './store.js';
