// The API states every time in whole epoch seconds, so an epoch X names the whole second
// [X, X + 1): a time the service keeps in milliseconds must not fall outside the second the API
// shows for it (docs/DEVELOPING.md "Times").

/** The current time truncated to the whole second: the domain's "now". */
export function nowSeconds(): Date {
  return new Date(Math.floor(Date.now() / 1000) * 1000);
}

/** The first instant after the epoch second `seconds`: an inclusive upper bound X is `< endOfSecond(X)`. */
export function endOfSecond(seconds: number): Date {
  return new Date((seconds + 1) * 1000);
}

/** SQL for the statement's "now" at the API's resolution, where a statement takes it from the database. */
export const SQL_NOW_SECONDS = `date_trunc('second', now())`;
