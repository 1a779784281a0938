/**
 * The part of undici the client uses: the keep-alive Agent and `request`. undici's index loads
 * every dispatcher, fetch, WebSocket, the mocks and the caches (~85 ms on every command that calls
 * the API); these two modules and what they need load in ~30 ms, and the build bundles them into
 * this one file (scripts/vendor.mjs; a build fails, never a user's run, if undici moves them).
 */

import request from 'undici/lib/api/api-request.js';
import Agent from 'undici/lib/dispatcher/agent.js';

export { Agent, request };
