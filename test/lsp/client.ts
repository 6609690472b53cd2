/**
 * A minimal LSP client for the end-to-end tests: spawns the real `yaoc lsp` and speaks JSON-RPC
 * over its stdio (Content-Length framing). Server-to-client requests (capability registration) are
 * answered with null and recorded.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { REPO_ROOT } from "../support/shared.js";

const BIN = join(REPO_ROOT, "bin/yaoc.js");

/** A wait this long means the server hangs: fail instead of waiting for the test timeout. */
const HANG_MS = 60_000;

export interface Publication {
  readonly uri: string;
  readonly version?: number;
  readonly diagnostics: any[];
}

export class LspClient {
  private buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly pending = new Map<number, (m: { result?: unknown; error?: unknown }) => void>();
  readonly notifications: { method: string; params: any }[] = [];
  readonly serverRequests: { method: string; params: any }[] = [];
  private waiters: (() => void)[] = [];
  /** The server's answer to initialize. */
  initialized: any;

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on("data", (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      for (;;) {
        const headerEnd = this.buffer.indexOf("\r\n\r\n");
        if (headerEnd < 0) return;
        const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, headerEnd).toString())![1]);
        if (this.buffer.length < headerEnd + 4 + length) return;
        const body = JSON.parse(this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString("utf8"));
        this.buffer = this.buffer.subarray(headerEnd + 4 + length);
        if (body.id !== undefined && body.method === undefined) this.pending.get(body.id)?.(body);
        else if (body.method !== undefined && body.id !== undefined) {
          this.serverRequests.push(body);
          this.send({ jsonrpc: "2.0", id: body.id, result: null });
        } else if (body.method !== undefined) {
          this.notifications.push(body);
          this.waiters.splice(0).forEach((w) => w());
        }
      }
    });
  }

  /** Spawn `yaoc lsp --stdio` and initialize it with the given client capabilities. */
  static async start(rootDir: string, capabilities: unknown = {}): Promise<LspClient> {
    const child = spawn(process.execPath, [BIN, "lsp", "--stdio"], { cwd: REPO_ROOT });
    const client = new LspClient(child);
    client.initialized = await client.request("initialize", {
      processId: process.pid,
      rootUri: pathToFileURL(rootDir).href,
      capabilities,
    });
    client.notify("initialized", {});
    return client;
  }

  async stop(): Promise<number | null> {
    await this.request("shutdown", null);
    const exited = new Promise<number | null>((r) => this.child.on("exit", (code) => r(code)));
    this.notify("exit", null);
    return exited;
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

  /** Every diagnostics publication received so far, from notification index `since` on. */
  publications(since = 0): Publication[] {
    return this.notifications
      .slice(since)
      .filter((n) => n.method === "textDocument/publishDiagnostics")
      .map((n) => n.params);
  }

  /** Wait until `found` returns something for the notifications received so far. */
  async waitFor<T>(found: () => T | undefined, what: string): Promise<T> {
    const deadline = Date.now() + HANG_MS;
    for (;;) {
      const hit = found();
      if (hit !== undefined) return hit;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`yaoc lsp: no ${what} within ${HANG_MS} ms`);
      await new Promise<void>((r) => {
        const t = setTimeout(r, left);
        this.waiters.push(() => (clearTimeout(t), r()));
      });
    }
  }

  /** The next diagnostics published for `uri` after `since` notifications. */
  diagnosticsFor(uri: string, since: number): Promise<any[]> {
    return this.waitFor(
      () => this.publications(since).find((p) => p.uri === uri)?.diagnostics,
      `diagnostics for ${uri}`,
    );
  }

  /** The diagnostics published for `uri` at `version` (after `since` notifications). */
  diagnosticsAt(uri: string, version: number, since = 0): Promise<any[]> {
    return this.waitFor(
      () => this.publications(since).find((p) => p.uri === uri && p.version === version)?.diagnostics,
      `diagnostics for ${uri} version ${version}`,
    );
  }
}
