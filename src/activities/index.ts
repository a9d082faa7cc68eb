/**
 * Activity implementations. Built from explicit dependencies (database, mail, ...) so the API
 * process and a standalone worker wire the same code to their own resources.
 */
// Empty for now: ping needs nothing. Later activities add their dependencies here.
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface ActivityDeps {}

export function createActivities(_deps: ActivityDeps = {}) {
  return {
    /** Health/smoke check: proves a worker is polling and activities run. */
    async ping(name: string): Promise<string> {
      return `pong: ${name}`;
    },
  };
}

export type Activities = ReturnType<typeof createActivities>;
