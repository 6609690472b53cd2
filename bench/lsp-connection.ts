/**
 * The client side of LSP's JSON-RPC over a child process's stdio (Content-Length framing,
 * requests, notifications), shared by figure (h) of `npm run bench` (bench/lsp.ts) and the
 * end-to-end tests (test/lsp/client.ts), which drive the real `yaoc lsp` process. The server's own
 * framing is vscode-languageserver's; this is a second, deliberately small implementation on the
 * other side of the pipe, so a framing bug in either shows up as a failure between the two.
 *
 * Here rather than under test/ because bench/ is built (`npm run bench` runs dist/bench/run.js)
 * and tests may import bench/, not the other way round.
 */
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { pathToFileURL } from "node:url";

/** One JSON-RPC message as received (the server speaks JSON; `params` is left to each caller). */
export interface RpcMessage {
  readonly jsonrpc?: string;
  readonly id?: number;
  readonly method?: string;
  readonly params?: any;
  readonly result?: unknown;
  readonly error?: unknown;
}

export class LspConnection {
  private buffer: Buffer = Buffer.alloc(0);
  /** Chunks received after `buffer`, not yet joined to it, and their bytes; `needed` bytes complete the message begun in `buffer`. */
  private chunks: Buffer[] = [];
  private waiting = 0;
  private needed = 0;
  private nextId = 1;
  private readonly pending = new Map<number, (m: RpcMessage) => void>();

  /**
   * `onNotification` sees every server notification; a server-to-client request (capability
   * registration) is shown to `onServerRequest` and answered with null, which accepts it.
   */
  constructor(
    readonly child: ChildProcessWithoutNullStreams,
    private readonly onNotification: (m: RpcMessage) => void,
    private readonly onServerRequest: (m: RpcMessage) => void = () => {},
  ) {
    child.stdout.on("data", (chunk: Buffer) => {
      // Chunks of a long message wait until it is complete: joining the buffer with each chunk
      // copied a 6 MB answer (64,000 locations) about a hundred times.
      this.chunks.push(chunk);
      this.waiting += chunk.length;
      if (this.waiting < this.needed) return;
      this.buffer = Buffer.concat([this.buffer].concat(this.chunks));
      this.chunks = [];
      this.waiting = 0;
      this.needed = 0;
      for (;;) {
        const headerEnd = this.buffer.indexOf("\r\n\r\n");
        if (headerEnd < 0) return;
        const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, headerEnd).toString())![1]);
        if (this.buffer.length < headerEnd + 4 + length) {
          this.needed = headerEnd + 4 + length - this.buffer.length;
          return;
        }
        const body = JSON.parse(
          this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString("utf8"),
        ) as RpcMessage;
        this.buffer = this.buffer.subarray(headerEnd + 4 + length);
        if (body.id !== undefined && body.method === undefined) this.pending.get(body.id)?.(body);
        else if (body.method !== undefined && body.id !== undefined) {
          this.onServerRequest(body);
          this.send({ jsonrpc: "2.0", id: body.id, result: null });
        } else if (body.method !== undefined) this.onNotification(body);
      }
    });
  }

  private send(message: unknown): void {
    const text = JSON.stringify(message);
    this.child.stdin.write(`Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
  }

  request(method: string, params: unknown): Promise<any> {
    return this.requestWithId(method, params).answer;
  }

  /** A request and its id, so that it can be cancelled (`cancel`) while the server works on it. */
  requestWithId(method: string, params: unknown): { readonly id: number; readonly answer: Promise<any> } {
    const id = this.nextId++;
    const answer = new Promise((resolve, reject) => {
      this.pending.set(id, (m) => (m.error ? reject(new Error(JSON.stringify(m.error))) : resolve(m.result)));
      this.send({ jsonrpc: "2.0", id, method, params });
    });
    return { id, answer };
  }

  /** `$/cancelRequest` for the request `id`. */
  cancel(id: number): void {
    this.notify("$/cancelRequest", { id });
  }

  notify(method: string, params: unknown): void {
    this.send({ jsonrpc: "2.0", method, params });
  }

  /** The LSP handshake for a workspace at `rootDir`: initialize, then initialized; the server's answer. */
  async initialize(rootDir: string, capabilities: unknown): Promise<any> {
    const answer = await this.request("initialize", {
      processId: process.pid,
      rootUri: pathToFileURL(rootDir).href,
      capabilities,
    });
    this.notify("initialized", {});
    return answer;
  }
}
