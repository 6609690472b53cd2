/**
 * The Node server's `Pause` (src/lsp/pause.ts): one turn of the event loop, so what arrived on
 * stdin meanwhile (a cancellation, a cheap request) is handled, then RequestCancelled when the
 * request was cancelled. One definition for every handler that works in slices.
 */
import { type CancellationToken, LSPErrorCodes, ResponseError } from "vscode-languageserver/node.js";
import type { Pause } from "./pause.js";

/** One turn of the event loop. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export function cancelled(): ResponseError<void> {
  return new ResponseError(LSPErrorCodes.RequestCancelled, "request cancelled");
}

/** A pause for the request of `token`: a turn of the loop, then a check for its cancellation. */
export function pauseFor(token: CancellationToken | undefined): Pause {
  return async () => {
    await nextTurn();
    if (token?.isCancellationRequested === true) throw cancelled();
  };
}
