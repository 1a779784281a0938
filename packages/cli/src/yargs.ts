/**
 * yargs, as the CLI loads it. The build replaces the compiled module with yargs and its helpers
 * bundled into one file (scripts/vendor.mjs), string-width's setup put off until help is printed:
 * ~20 ms to load instead of ~85 ms, on every command.
 */
export { default } from 'yargs';
