/**
 * Message shapes. A diagnostic that mirrors an A3S Use error carries the reference's error code and
 * its exact wording as `[<reference code>] <reference message>`, so people see what A3S Use says and
 * tools can compare verdicts (`splitReferenceMessage`). OKF diagnostics are the exception: their
 * message is the reference's sentence alone and their code names the reference code (docs/a3s.md).
 */
export function referenceMessage(referenceCode: string, wording: string): string {
  return `[${referenceCode}] ${wording}`;
}

export function splitReferenceMessage(message: string): { code: string; message: string } | null {
  const m = /^\[([a-z0-9_.]+)\] ([\s\S]*)$/.exec(message);
  return m === null ? null : { code: m[1]!, message: m[2]! };
}
