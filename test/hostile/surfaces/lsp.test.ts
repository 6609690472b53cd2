/**
 * Issue 35, the language server (items 1–4): the real `yaoc lsp` over stdio. It reads only open
 * documents and files under its workspace folders; a malformed frame ends it with status 1 and a
 * message instead of leaving it deaf; after `shutdown` requests get InvalidRequest and `exit` ends
 * it at once; odd URIs and a closed stdout never print a stack trace; an oversized document gets
 * `yao.source_limit`; and the hostile corpus gets one verdict from `yaoc check` on disk, from the
 * language server, and from the built browser bundle (the `yaoc.min.js` that the playground loads,
 * with its own MemoryFs), compared tree by tree.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { pathToFileURL } from "node:url";
import {
  createConnection,
  ProposedFeatures,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver/node.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LspConnection } from "../../../bench/lsp-connection.js";
import { G_SOURCE, growingFunction, usesPackage, writeDirectoryPackage } from "../../../bench/lsp-uses.js";
import { buildBrowserBundle } from "../../../scripts/build-browser.mjs";
import { check } from "../../../src/check/check.js";
import { NodeFs } from "../../../src/fs/node-fs.js";
import { runLanguageServer } from "../../../src/lsp/node-server.js";
import { BIN } from "../../support/cli.js";
import { REPO_ROOT } from "../../support/shared.js";
import { LspClient } from "../../lsp/client.js";
import { fillMemoryTree, hostileCorpus, type WritableTree } from "./corpus.js";
import { packageFileOf, writeTree } from "./corpus-disk.js";

const root = mkdtempSync(join(tmpdir(), "yaoc-surfaces-lsp-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const uri = (path: string) => pathToFileURL(path).href;

/** Spawn the server, write raw bytes, and collect what it says until it exits (or `ms` pass). */
function raw(chunks: readonly (string | Buffer)[], ms = 20_000) {
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(process.execPath, [BIN, "lsp", "--stdio"], { cwd: REPO_ROOT });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), ms);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
    for (const c of chunks) child.stdin.write(c);
  });
}

function frame(message: unknown): string {
  const body = JSON.stringify({ jsonrpc: "2.0", ...(message as object) });
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

const init = frame({ id: 1, method: "initialize", params: { processId: null, rootUri: null, capabilities: {} } });

describe("protocol: malformed frames end the server with a message, never deafness", () => {
  for (const [what, header] of [
    ["a negative Content-Length", "Content-Length: -5\r\n\r\n"],
    ["a NaN Content-Length", "Content-Length: abc\r\n\r\n"],
    ["a missing Content-Length", "Content-Type: x\r\n\r\n{}"],
    ["a duplicate Content-Length", "Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}"],
  ] as const) {
    it(what, async () => {
      const r = await raw([init, header]);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/malformed message frame/);
      expect(r.err).not.toMatch(/\n\s+at /);
    });
  }
});

describe("lifecycle", () => {
  it("answers InvalidRequest after shutdown, and exit ends the server at once with 0", async () => {
    const r = await raw(
      [
        init,
        frame({ method: "initialized", params: {} }),
        frame({ id: 2, method: "shutdown" }),
        frame({ id: 3, method: "textDocument/documentSymbol", params: { textDocument: { uri: "file:///x.yao" } } }),
      ].concat([]),
      3_000,
    );
    // The server is killed by the timer here (no exit sent): what matters is the answer to id 3.
    expect(r.out).toMatch(/"id":3,"error":\{"code":-32600/);
    const e = await raw([init, frame({ id: 2, method: "shutdown" }), frame({ method: "exit" })]);
    expect(e.code).toBe(0);
    const noShutdown = await raw([init, frame({ method: "exit" })]);
    expect(noShutdown.code).toBe(1);
  });

  it("exit ends the server at once while a long request is running, without answering it", async () => {
    // The first references of a 64,000-use package checks it and builds its index, which takes
    // seconds; `exit` sent right behind it (after `shutdown`) ends the process, with 0, before that
    // request is answered.
    const { root: pkg, declaring } = usesPackage(join(root, "exit-uses.hns"), 64_000);
    const child = spawn(process.execPath, [BIN, "lsp", "--stdio"], { cwd: REPO_ROOT });
    let out = "";
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    const initialized = new Promise<void>((resolve) =>
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        if (out.includes('"id":1,"result"')) resolve();
      }),
    );
    child.stdin.write(
      frame({ id: 1, method: "initialize", params: { processId: null, rootUri: uri(pkg), capabilities: {} } }),
    );
    await initialized;
    child.stdin.write(
      [
        frame({ method: "initialized", params: {} }),
        frame({
          method: "textDocument/didOpen",
          params: { textDocument: { uri: uri(declaring), languageId: "yao", version: 1, text: G_SOURCE } },
        }),
        frame({
          id: 5,
          method: "textDocument/references",
          params: {
            textDocument: { uri: uri(declaring) },
            position: { line: 0, character: 4 },
            context: { includeDeclaration: true },
          },
        }),
        frame({ id: 6, method: "shutdown" }),
        frame({ method: "exit" }),
      ].join(""),
    );
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    const code = await exited;
    clearTimeout(timer);
    expect(code).toBe(0);
    expect(out).not.toMatch(/"id":5,"result"/);
    expect(err).not.toMatch(/\n\s+at /);
  }, 90_000);

  it("odd URIs get an error response, not a stack trace; a closed stdout ends quietly", async () => {
    const ask = (id: number, u: string) =>
      frame({ id, method: "textDocument/documentSymbol", params: { textDocument: { uri: u } } });
    const r = await raw(
      [init, ask(2, "file://host/etc/passwd"), ask(3, "file:///tmp/a%2Fb.yao"), ask(4, "http://x/y")],
      3_000,
    );
    // Killed by the timer (exit would end it before the answers are written): the answers are what counts.
    for (const id of [2, 3, 4]) expect(r.out).toMatch(new RegExp(`"id":${id},"error":\\{"code":-32602`));
    expect(r.err).not.toMatch(/\n\s+at /);

    const child = spawn(process.execPath, [BIN, "lsp", "--stdio"], { cwd: REPO_ROOT });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => {
      child.on("exit", resolve);
      child.stdin.write(init);
    });
    expect(err).not.toMatch(/\n\s+at /);
    expect([0, 1]).toContain(code);
  });
});

describe("confinement", () => {
  it("refuses files outside the workspace folders, by real path, and serves those inside", async () => {
    const ws = join(root, "ws");
    mkdirSync(ws);
    writeFileSync(join(root, "outside.yao"), "(eval   1)\n");
    writeFileSync(join(ws, "inside.yao"), "(eval   1)\n");
    symlinkSync(join(root, "outside.yao"), join(ws, "link.yao"));
    const client = await LspClient.start(ws);
    try {
      for (const u of [
        "file:///etc/passwd",
        `${uri(ws)}/../../etc/passwd`,
        uri(join(root, "outside.yao")),
        uri(join(ws, "link.yao")),
      ]) {
        await expect(
          client.request("textDocument/formatting", {
            textDocument: { uri: u },
            options: { tabSize: 2, insertSpaces: true },
          }),
        ).rejects.toThrow(/neither an open document nor under a workspace folder|not a local file/);
        await expect(client.request("textDocument/documentSymbol", { textDocument: { uri: u } })).rejects.toThrow();
      }
      const edits = await client.request("textDocument/formatting", {
        textDocument: { uri: uri(join(ws, "inside.yao")) },
        options: { tabSize: 2, insertSpaces: true },
      });
      expect(edits[0].newText).toBe("(eval 1)\n");
    } finally {
      await client.stop();
    }
  });
});

describe("a package above the workspace", () => {
  it("is never scanned: a file under the folder is judged on its own, as it is not with the folder above", async () => {
    // The folder is inside a directory package (`up.hns/ws`); the package's manifest says nothing
    // valid, so judging the file as part of it gives diagnostics, and on its own it gives none.
    const up = join(root, "up.hns");
    const ws = join(up, "ws");
    mkdirSync(ws, { recursive: true });
    writeFileSync(join(up, "manifest.yao"), "(manifest (id");
    const file = uri(join(ws, "x.yao"));
    const manifest = uri(join(up, "manifest.yao"));
    const open = async (folder: string, wait: string) => {
      const client = await LspClient.start(folder);
      try {
        client.notify("textDocument/didOpen", {
          textDocument: { uri: file, languageId: "yao", version: 1, text: "(eval (add 1 2))\n" },
        });
        const waited = (await client.diagnosticsFor(wait, 0)).map((d: { code: string }) => d.code);
        return { waited, published: client.publications().map((p) => p.uri) };
      } finally {
        await client.stop();
      }
    };
    // The package's folder as the workspace: x.yao is one of its files, and the package is judged.
    expect((await open(up, manifest)).waited).toEqual(["yao.unclosed_list"]);
    // The folder below it: the package is out of reach, so x.yao is a lone program, and valid.
    const confined = await open(ws, file);
    expect(confined.waited).toEqual([]);
    expect(confined.published).toEqual([file]);
  });
});

describe("an oversized open document and the hostile corpus", () => {
  it("an open .yao over the source limit gets yao.source_limit, not an empty document", async () => {
    const ws = join(root, "big");
    mkdirSync(ws);
    const client = await LspClient.start(ws);
    try {
      const u = uri(join(ws, "big.yao"));
      client.notify("textDocument/didOpen", {
        textDocument: { uri: u, languageId: "yao", version: 1, text: `(eval "${"x".repeat(1_100_000)}")` },
      });
      const ds = await client.diagnosticsFor(u, 0);
      expect(ds.map((d: { code: string }) => d.code)).toContain("yao.source_limit");
    } finally {
      await client.stop();
    }
  });

  /** The built browser entry, as a page imports it: its own `check` and `MemoryFs`, not src's. */
  let bundle: {
    check: (fs: unknown, path: string) => Promise<{ valid: boolean; diagnostics: { code: string }[] }>;
    MemoryFs: new () => WritableTree;
  };
  beforeAll(async () => {
    const out = join(root, "browser-bundle");
    await buildBrowserBundle({ outdir: out });
    bundle = await import(/* @vite-ignore */ pathToFileURL(join(out, "yaoc.min.js")).href);
  }, 120_000);

  it("every tree of the corpus gets one verdict from yaoc check, the language server and the browser bundle", async () => {
    const ws = join(root, "corpus");
    mkdirSync(ws);
    const client = await LspClient.start(ws);
    const corpus = hostileCorpus();
    expect(corpus.length).toBeGreaterThan(0);
    const codes = (ds: readonly { code: string }[]) => ds.map((d) => d.code).sort();
    try {
      for (const tree of corpus) {
        const base = join(ws, tree.name);
        mkdirSync(base);
        writeTree(base, tree);
        const expected = await check(new NodeFs(), join(base, tree.root));
        expect(expected.valid, `${tree.name}: yaoc check`).toBe(tree.valid);
        const inBrowser = await bundle.check(fillMemoryTree(new bundle.MemoryFs(), tree), `/work/${tree.root}`);
        expect({ valid: inBrowser.valid, codes: codes(inBrowser.diagnostics) }, `${tree.name}: browser bundle`).toEqual(
          {
            valid: expected.valid,
            codes: codes(expected.diagnostics),
          },
        );
        const file = packageFileOf(base, tree);
        if (file === undefined) continue;
        const since = client.notifications.length;
        client.notify("textDocument/didOpen", {
          textDocument: { uri: uri(file.path), languageId: file.language, version: 1, text: file.text },
        });
        await client.waitFor(() => (client.publications(since).length > 0 ? true : undefined), tree.name);
        // One check publishes every file of its package: let the rest of that burst arrive.
        await new Promise((r) => setTimeout(r, 300));
        const published = client.publications(since);
        const errors = published.flatMap((p) => p.diagnostics).filter((d: { severity: number }) => d.severity === 1);
        expect(
          errors.length === 0,
          `${tree.name}: ${JSON.stringify(errors.map((d: { code: string }) => d.code))}`,
        ).toBe(expected.valid);
      }
    } finally {
      await client.stop();
    }
  });
});

describe("formatting never changes a verdict", () => {
  /** A directory package of `fillers` function files of 250,000 bytes and one that formats from 9.5 KB to 203 KB. */
  function nearTheTotal(name: string, fillers: number): string {
    const functions: [string, string][] = [["grow", growingFunction("grow")]];
    for (let i = 0; i < fillers; i++) {
      const head = `(fn filler${i} (visibility internal) (description "d") (params) (returns Int) (effects) (body 1))\n`;
      functions.push([`filler${i}`, head + ";; filler\n".repeat(Math.ceil((250_000 - head.length) / 10))]);
    }
    return writeDirectoryPackage(join(root, "fmt-total", name), {
      id: "acme.grow",
      title: "Grow",
      main: "(eval (requires (tools)) 1)\n",
      functions,
    });
  }

  async function formatGrow(pkg: string) {
    const client = await LspClient.start(pkg);
    try {
      const edits = await client.request("textDocument/formatting", {
        textDocument: { uri: uri(join(pkg, "functions", "grow.yao")) },
        options: { tabSize: 2, insertSpaces: true },
      });
      // The server says why in a message (a showMessage request, as vscode-languageserver sends warnings).
      const warnings = [...client.notifications, ...client.serverRequests]
        .filter((n) => n.method === "window/showMessage" || n.method === "window/showMessageRequest")
        .map((n) => n.params.message as string);
      return { edits: edits as { newText: string }[], warnings };
    } finally {
      await client.stop();
    }
  }

  it("gives no edit that would push a directory package past its 4 MiB total, and says why", async () => {
    const pkg = nearTheTotal("over.hns", 16);
    expect((await check(new NodeFs(), pkg)).valid).toBe(true);
    const { edits, warnings } = await formatGrow(pkg);
    expect(edits).toEqual([]);
    expect(warnings.join("\n")).toMatch(/hns\.package_limit|would make its package fail its size limit/);
  }, 60_000);

  it("formats the same file when the package stays within its total", async () => {
    const pkg = nearTheTotal("within.hns", 15);
    const { edits, warnings } = await formatGrow(pkg);
    expect(edits).toHaveLength(1);
    expect(edits[0]!.newText.length).toBeGreaterThan(200_000);
    expect(warnings).toEqual([]);
  }, 60_000);
});

/**
 * The one set-up of the scale tests: a server with `g.yao` of a package of `uses` calls of g open
 * and checked, and its symbol index built. `process` is the real `yaoc lsp`
 * process; `in-process` runs the server in this process over in-memory streams, so the test runs
 * between the server's turns of the event loop and "a message arrives while the request is in its
 * slices" does not depend on how a loaded machine schedules two processes.
 */
let servers = 0;
async function usesServer(uses: number, where: "process" | "in-process") {
  const { root: pkg, declaring } = usesPackage(join(root, `uses-${uses}-${where}-${servers++}.hns`), uses);
  let transport: ChildProcessWithoutNullStreams;
  let stop: () => void;
  if (where === "process") {
    const child = spawn(process.execPath, [BIN, "lsp", "--stdio"], { cwd: REPO_ROOT });
    transport = child;
    stop = () => child.kill();
  } else {
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    runLanguageServer(
      createConnection(ProposedFeatures.all, new StreamMessageReader(toServer), new StreamMessageWriter(fromServer)),
    );
    transport = { stdin: toServer, stdout: fromServer } as unknown as ChildProcessWithoutNullStreams;
    stop = () => toServer.end();
  }
  let published: (() => void) | undefined;
  const c = new LspConnection(transport, (m) => {
    if (m.method === "textDocument/publishDiagnostics") published?.();
  });
  await c.initialize(pkg, {});
  const u = uri(declaring);
  const checked = new Promise<void>((r) => (published = r));
  c.notify("textDocument/didOpen", { textDocument: { uri: u, languageId: "yao", version: 1, text: G_SOURCE } });
  await checked;
  const at = { textDocument: { uri: u }, position: { line: 0, character: 4 } };
  const references = { ...at, context: { includeDeclaration: true } };
  // The index built by a request that does not keep the references' locations (the server keeps
  // those of the last symbols asked for), so the first references request makes them, in slices.
  expect(await c.request("textDocument/prepareRename", at)).toEqual({
    range: { start: at.position, end: { line: 0, character: 5 } },
    placeholder: "g",
  });
  return { c, at, references, uri: u, stop };
}

/** Whether `answer` has settled yet, read synchronously, and how it settled. */
function watch(answer: Promise<unknown>) {
  const state = { settled: false };
  const how = answer.then(
    () => "answered",
    (e: Error) => e.message,
  );
  void how.then(() => (state.settled = true));
  return { state, how };
}

describe("a long request neither blocks a cheap one nor ignores $/cancelRequest", () => {
  it("a hover sent after a long references request is answered first", async () => {
    const { c, at, references, stop } = await usesServer(64_000, "process");
    try {
      const order: string[] = [];
      const refs = c.request("textDocument/references", references).then((r: unknown[]) => {
        order.push("references");
        return r.length;
      });
      const hover = c.request("textDocument/hover", at).then(() => order.push("hover"));
      expect(await refs).toBe(64_002);
      await hover;
      expect(order).toEqual(["hover", "references"]);

      // The server goes on: the next request is answered in full.
      expect((await c.request("textDocument/references", references)).length).toBe(64_002);
    } finally {
      stop();
    }
  }, 120_000);
});

describe("$/cancelRequest for a request that is already running", () => {
  let server: Awaited<ReturnType<typeof usesServer>>;
  beforeAll(async () => {
    server = await usesServer(64_000, "in-process");
  }, 120_000);
  afterAll(() => server?.stop());

  it("stops a running references request at its next slice with RequestCancelled, and the server goes on", async () => {
    const { c, at, references } = server;
    const running = c.requestWithId("textDocument/references", references);
    const { state, how } = watch(running.answer);
    // A hover sent behind it is answered between two of its slices: it is running now.
    await c.request("textDocument/hover", at);
    expect(state.settled).toBe(false);
    c.cancel(running.id);
    expect(await how).toMatch(/"code":-32800/);
    // The server goes on: the next request is answered in full.
    expect((await c.request("textDocument/references", references)).length).toBe(64_002);
  }, 120_000);

  it("rename of every use is made in slices: a hover is answered meanwhile, and a cancellation stops it", async () => {
    const { c, at } = server;
    const running = c.requestWithId("textDocument/rename", { ...at, newName: "h" });
    const { state, how } = watch(running.answer);
    await c.request("textDocument/hover", at);
    expect(state.settled).toBe(false);
    c.cancel(running.id);
    expect(await how).toMatch(/"code":-32800/);
    // Not cancelled, it renames every use.
    const edit = await c.request("textDocument/rename", { ...at, newName: "h" });
    const edits = Object.values(
      (edit as { changes?: Record<string, unknown[]> }).changes ??
        Object.fromEntries(
          (
            (edit as { documentChanges: { textDocument: { uri: string }; edits: unknown[] }[] }).documentChanges ?? []
          ).map((d) => [d.textDocument.uri, d.edits]),
        ),
    ).reduce((n, e) => n + e.length, 0);
    expect(edits).toBe(64_002);
  }, 120_000);

  it("the first request after an edit (a new check and index) gives way to a hover and honours a cancellation", async () => {
    const { c, at, uri: u } = server;
    let version = 1;
    const edit = () =>
      c.notify("textDocument/didChange", {
        textDocument: { uri: u, version: ++version },
        contentChanges: [{ text: `${G_SOURCE};; edit ${version}\n` }],
      });
    edit();
    const running = c.requestWithId("textDocument/prepareRename", at);
    const { state, how } = watch(running.answer);
    // The index of the new text is built in slices (after the check, between files): the hover
    // sent behind the request is answered before it, and the cancellation reaches it.
    await c.request("textDocument/hover", at);
    expect(state.settled).toBe(false);
    c.cancel(running.id);
    expect(await how).toMatch(/"code":-32800/);
    // Not cancelled, the first request after the next edit is answered in full.
    edit();
    const order: string[] = [];
    const prepared = c.request("textDocument/prepareRename", at).then((r: unknown) => (order.push("prepare"), r));
    await c.request("textDocument/hover", at).then(() => order.push("hover"));
    expect(await prepared).toEqual({ range: { start: at.position, end: { line: 0, character: 5 } }, placeholder: "g" });
    expect(order).toEqual(["hover", "prepare"]);
  }, 120_000);
});
