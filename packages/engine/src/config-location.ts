// The package entry `@monitor/engine/config-location`: finding the config, without loading the engine.
export {
  localAccountDir,
  localRoot,
  locateConfig,
  nearestConfig,
  nearestWorkspace,
} from './load/config-location.js';
