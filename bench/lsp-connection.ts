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
  private buffer = Buffer.alloc(0);
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
      this.buffer = Buffer.concat([this.buffer, chunk]);
      for (;;) {
        const headerEnd = this.buffer.indexOf("\r\n\r\n");
        if (headerEnd < 0) return;
        const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, headerEnd).toString())![1]);
        if (this.buffer.length < headerEnd + 4 + length) return;
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
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, (m) => (m.error ? reject(new Error(JSON.stringify(m.error))) : resolve(m.result)));
      this.send({ jsonrpc: "2.0", id, method, params });
    });
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
