/**
 * How a long request gives way: the work grows with the package (an index of 64,000 uses, a rename
 * of all of them), so it is done in slices with a `Pause` between them. The Node server's pause is
 * one turn of the event loop, so what arrived on stdin meanwhile (a cheap request, a
 * `$/cancelRequest`) is handled, and it throws RequestCancelled when this request was cancelled.
 * Callers without a loop to share (the playground, tests of the features) pass none. Browser-safe.
 */
export type Pause = () => Promise<void>;

/** Work without slices: for callers that serve one request at a time. */
export const NO_PAUSE: Pause = () => Promise.resolve();

/** Items a long request handles between two pauses (a few milliseconds of work). */
export const REQUEST_SLICE = 2048;
