/**
 * The language server's guard in front of the LSP transport (Node): a stream between stdin and
 * vscode-jsonrpc's reader that checks every frame and the lifecycle before the library sees them.
 *
 * - A frame needs exactly one `Content-Length`, a decimal integer from 0 to `MAX_MESSAGE_BYTES`,
 *   and a header of at most 8 KiB. Anything else (negative, NaN, missing, duplicate, oversized) is
 *   malformed: the library would wait for a body that never ends and go deaf for good, so it is
 *   logged on stderr and the server exits with status 1, for the editor to restart it.
 * - After `shutdown`, every request but `exit` is renamed to `$/yaoc/afterShutdown`, which the
 *   server answers with `InvalidRequest` (LSP 3.17: "requests after shutdown are errors").
 * - `exit` ends the process at once (0 after `shutdown`, 1 without), without waiting for a
 *   request still being answered.
 */
import { Transform, type TransformCallback } from "node:stream";

/** The largest message the server reads: an open document is at most a few MiB of JSON. */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
const MAX_HEADER_BYTES = 8 * 1024;
export const AFTER_SHUTDOWN_METHOD = "$/yaoc/afterShutdown";

const CRLF2 = Buffer.from("\r\n\r\n");

export interface FrameEvents {
  /** A frame that cannot be read: the server logs `reason` and exits 1. */
  malformed(reason: string): void;
  /** The client sent `exit`; `afterShutdown` tells whether `shutdown` came first. */
  exit(afterShutdown: boolean): void;
}

export class FrameGuard extends Transform {
  private pending: Buffer = Buffer.alloc(0);
  private bodyLength = -1;
  private shutdown = false;
  private failed = false;

  constructor(private readonly events: FrameEvents) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.failed) return done();
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    for (;;) {
      if (this.bodyLength < 0) {
        const end = this.pending.indexOf(CRLF2);
        if (end < 0) {
          if (this.pending.length > MAX_HEADER_BYTES) return this.fail("a message header longer than 8 KiB", done);
          return done();
        }
        const length = contentLength(this.pending.subarray(0, end).toString("ascii"));
        if (typeof length === "string") return this.fail(length, done);
        this.bodyLength = length;
        this.pending = this.pending.subarray(end + 4);
      }
      if (this.pending.length < this.bodyLength) return done();
      const body = this.pending.subarray(0, this.bodyLength);
      this.pending = this.pending.subarray(this.bodyLength);
      this.bodyLength = -1;
      const forwarded = this.lifecycle(body);
      if (forwarded === null) return done();
      this.push(Buffer.from(`Content-Length: ${forwarded.length}\r\n\r\n`, "ascii"));
      this.push(forwarded);
    }
  }

  /** The body to hand on (maybe renamed), or null when the process is ending. */
  private lifecycle(body: Buffer): Buffer | null {
    // Only the lifecycle methods matter here: bodies that cannot name them are not parsed.
    if (!this.shutdown && body.indexOf('"shutdown"') < 0 && body.indexOf('"exit"') < 0) return body;
    let message: { id?: unknown; method?: unknown };
    try {
      message = JSON.parse(body.toString("utf8")) as { id?: unknown; method?: unknown };
    } catch {
      return body; // the library answers a parse error
    }
    if (message === null || typeof message !== "object") return body;
    if (message.method === "exit") {
      this.events.exit(this.shutdown);
      return null;
    }
    if (message.method === "shutdown") {
      this.shutdown = true;
      return body;
    }
    if (this.shutdown && message.id !== undefined && typeof message.method === "string")
      return Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: message.id, method: AFTER_SHUTDOWN_METHOD }), "utf8");
    return body;
  }

  private fail(reason: string, done: TransformCallback): void {
    this.failed = true;
    this.pending = Buffer.alloc(0);
    this.events.malformed(reason);
    done();
  }
}

/** The one Content-Length of a header, or why the header is malformed. */
function contentLength(header: string): number | string {
  let found: number | undefined;
  for (const line of header.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon < 0) return `a header line without a colon: ${JSON.stringify(line.slice(0, 80))}`;
    if (line.slice(0, colon).trim().toLowerCase() !== "content-length") continue;
    if (found !== undefined) return "a message header with two Content-Length fields";
    const value = line.slice(colon + 1).trim();
    if (!/^\d{1,10}$/.test(value))
      return `a Content-Length that is not a non-negative integer: ${JSON.stringify(value.slice(0, 40))}`;
    const n = Number(value);
    if (n > MAX_MESSAGE_BYTES)
      return `a Content-Length of ${n} bytes, more than the ${MAX_MESSAGE_BYTES} the server reads`;
    found = n;
  }
  if (found === undefined) return "a message header without Content-Length";
  return found;
}
