// `@monitor/engine/escape`: the escaping functions alone, for commands that print account data
// without loading the engine.
export {
  escapeMarkdown,
  escapeTerminal,
  markdownCode,
  markdownFence,
  markdownLink,
} from './render/escape.js';
