// The package entry `@monitor/engine/prefetch`: what the CLI loads before the engine itself.
export { prefetchProject } from './load/prefetch.js';
