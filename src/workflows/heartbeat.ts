// How soon a lost worker is noticed (no imports: workflow and worker code both read it). Every
// activity heartbeats while it runs (src/activities/keep-alive.ts), so when its worker dies
// (SIGKILL, a lost machine) Temporal retries it on another worker after HEARTBEAT_TIMEOUT instead
// of after its start-to-close timeout, which is minutes for the long steps. A heartbeat says only
// that the worker is alive: an activity stuck in its own work still ends at start-to-close.
export const HEARTBEAT_TIMEOUT = '30 seconds';
/** Well under the timeout: an event loop a few seconds late under load is not taken for a death. */
export const HEARTBEAT_EVERY_MS = 5_000;
