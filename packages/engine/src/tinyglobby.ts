/**
 * tinyglobby, as the engine loads it. The build replaces the compiled module with tinyglobby and
 * what it imports (fdir, and picomatch, which is CommonJS) bundled into one ES module
 * (scripts/vendor.mjs): Node then neither resolves their dozen files one by one nor scans
 * picomatch's CommonJS for its exports, ~10 ms of every project load.
 */
export { glob } from 'tinyglobby';
