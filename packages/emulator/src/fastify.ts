/**
 * Fastify, as the emulator loads it. The build replaces this module with Fastify and its
 * dependencies bundled into one file (scripts/vendor.mjs): `--local` commands and `monitor
 * emulator` load it in ~60-90 ms instead of ~100-130 ms as a few hundred CommonJS modules.
 */
export { default } from 'fastify';
