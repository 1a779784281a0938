// The package entry `@monitor/engine/config-location`: finding the config, without loading the engine.
export { localAccountDir, locateConfig, nearestConfig } from './load/config-location.js';
