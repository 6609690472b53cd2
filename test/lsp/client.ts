/**
 * A minimal LSP client for the end-to-end tests: spawns the real `yaoc lsp` and speaks JSON-RPC
 * over its stdio through bench/lsp-connection.ts (the framing figure (h) of the bench uses too).
 * Server-to-client requests (capability registration) are answered with null and recorded.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { join } from "node:path";
import { LspConnection } from "../../bench/lsp-connection.js";
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
  readonly notifications: { method: string; params: any }[] = [];
  readonly serverRequests: { method: string; params: any }[] = [];
  private waiters: (() => void)[] = [];
  private readonly connection: LspConnection;
  /** The server's answer to initialize. */
  initialized: any;

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    this.connection = new LspConnection(
      child,
      (m) => {
        this.notifications.push({ method: m.method!, params: m.params });
        this.waiters.splice(0).forEach((w) => w());
      },
      (m) => this.serverRequests.push({ method: m.method!, params: m.params }),
    );
  }

  /** Spawn `yaoc lsp --stdio` and initialize it with the given client capabilities. */
  static async start(rootDir: string, capabilities: unknown = {}): Promise<LspClient> {
    const child = spawn(process.execPath, [BIN, "lsp", "--stdio"], { cwd: REPO_ROOT });
    const client = new LspClient(child);
    client.initialized = await client.connection.initialize(rootDir, capabilities);
    return client;
  }

  async stop(): Promise<number | null> {
    await this.request("shutdown", null);
    const exited = new Promise<number | null>((r) => this.child.on("exit", (code) => r(code)));
    this.notify("exit", null);
    return exited;
  }

  request(method: string, params: unknown): Promise<any> {
    return this.connection.request(method, params);
  }

  notify(method: string, params: unknown): void {
    this.connection.notify(method, params);
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
