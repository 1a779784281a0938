/**
 * yargs, as the CLI loads it. The build replaces the compiled module with yargs and its helpers
 * bundled into one file (scripts/vendor.mjs): ~50 ms to load instead of ~85 ms, on every command.
 */
export { default } from 'yargs';
