/**
 * zod, as every monitor package imports it (`@monitor/api/zod`). The build replaces the compiled
 * module with zod bundled into one file (scripts/vendor.mjs), which loads in about half the time of
 * zod's 95 modules; importing `zod` directly anywhere else would load it a second time.
 */
export * from 'zod';
