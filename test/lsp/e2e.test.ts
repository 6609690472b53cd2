/**
 * `yaoc lsp` end to end: spawn the real executable and speak LSP JSON-RPC over its stdio
 * (Content-Length framing), asserting real results for every feature the server announces.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/shared.js";
import { LspClient } from "./client.js";

const SINGLE = `(manifest (id demo) (version "1") (title "Demo") (capabilities (tools read)))
(contract (purpose "demo"))
(fn load
  (visibility exported)
  (description "Read one file")
  (params (path String))
  (returns Json)
  (effects (tool read))
  (body (call read (path path))))
(eval
  (requires (tools read))
  (seq
    (bind n (add 1 2))
    (bind doc (load (path "README.md")))
    (list n (add n 1))))
`;

let dir: string;
let client: LspClient;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "yaoc-lsp-"));
  cpSync(join(REPO_ROOT, "examples/review-dir.hns"), join(dir, "review-dir.hns"), { recursive: true });
  client = await LspClient.start(dir);
  expect(client.initialized.capabilities.hoverProvider).toBe(true);
});

afterAll(async () => {
  expect(await client.stop()).toBe(0);
  rmSync(dir, { recursive: true, force: true });
});

describe("yaoc lsp over stdio", () => {
  const uri = (): string => pathToFileURL(join(dir, "demo.hns")).href;

  it("publishes no diagnostics for a valid package, then the analyzer's error after a change", async () => {
    let since = client.notifications.length;
    client.notify("textDocument/didOpen", {
      textDocument: { uri: uri(), languageId: "yao", version: 1, text: SINGLE },
    });
    expect(await client.diagnosticsFor(uri(), since)).toEqual([]);

    since = client.notifications.length;
    // One edit: `(add 1 2)` → `(add 1 "2")` on line 13 (0-based 12).
    const line = SINGLE.split("\n")[12]!;
    const col = line.indexOf("2)");
    client.notify("textDocument/didChange", {
      textDocument: { uri: uri(), version: 2 },
      contentChanges: [
        { range: { start: { line: 12, character: col }, end: { line: 12, character: col + 1 } }, text: '"2"' },
      ],
    });
    const diagnostics = await client.diagnosticsFor(uri(), since);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({
      severity: 1,
      source: "yaoc",
      code: "yao.type_mismatch",
      range: { start: { line: 12 } },
    });
    expect(diagnostics[0].codeDescription.href).toMatch(/docs\/diagnostics\.md$/);
    expect(diagnostics[0].range.start.character).toBeGreaterThan(0);

    since = client.notifications.length;
    client.notify("textDocument/didChange", {
      textDocument: { uri: uri(), version: 3 },
      contentChanges: [{ text: SINGLE }],
    });
    expect(await client.diagnosticsFor(uri(), since)).toEqual([]);
  });

  it("hover: a function's signature with its description and effects, an operator's type, a binding's inferred type", async () => {
    const at = (line: number, text: string, delta = 0) => ({
      line,
      character: SINGLE.split("\n")[line]!.indexOf(text) + delta,
    });
    const fn = await client.request("textDocument/hover", { textDocument: { uri: uri() }, position: at(13, "load") });
    expect(fn.contents.value).toContain("(fn load");
    expect(fn.contents.value).toContain("Read one file");
    expect(fn.contents.value).toContain("effects:");
    expect(fn.contents.value).toContain("read");
    const op = await client.request("textDocument/hover", { textDocument: { uri: uri() }, position: at(12, "add") });
    expect(op.contents.value).toContain("(add A B...)");
    const bound = await client.request("textDocument/hover", {
      textDocument: { uri: uri() },
      position: at(12, " n", 1),
    });
    expect(bound.contents.value).toContain("n : Int");
    const use = await client.request("textDocument/hover", {
      textDocument: { uri: uri() },
      position: at(14, "list n", 5),
    });
    expect(use.contents.value).toContain("Int");
    const tool = await client.request("textDocument/hover", { textDocument: { uri: uri() }, position: at(8, "read") });
    expect(tool.contents.value).toContain("tool `read`");
  });

  it("definition and references: a function and a binding", async () => {
    const def = await client.request("textDocument/definition", {
      textDocument: { uri: uri() },
      position: { line: 13, character: SINGLE.split("\n")[13]!.indexOf("load") },
    });
    expect(def).toEqual([{ uri: uri(), range: { start: { line: 2, character: 4 }, end: { line: 2, character: 8 } } }]);
    const useOfN = { line: 14, character: SINGLE.split("\n")[14]!.indexOf("list n") + 5 };
    const nDef = await client.request("textDocument/definition", { textDocument: { uri: uri() }, position: useOfN });
    expect(nDef[0].range.start).toEqual({ line: 12, character: SINGLE.split("\n")[12]!.indexOf(" n") + 1 });
    const refs = await client.request("textDocument/references", {
      textDocument: { uri: uri() },
      position: useOfN,
      context: { includeDeclaration: true },
    });
    expect(refs.map((r: any) => r.range.start.line)).toEqual([12, 14, 14]);
  });

  it("references asked again answer the same, with or without the declaration, until an edit moves them", async () => {
    // The server keeps the locations of the last symbols asked for with the index of the analysis;
    // every answer must be what a fresh walk gives, and an edit (a new analysis) must not see old ones.
    const lines = async (includeDeclaration: boolean, line = 2) =>
      (
        await client.request("textDocument/references", {
          textDocument: { uri: uri() },
          position: { line, character: 4 },
          context: { includeDeclaration },
        })
      ).map((r: any) => `${r.uri === uri() ? "" : r.uri}${r.range.start.line}:${r.range.start.character}`);
    const load = SINGLE.split("\n")[13]!.indexOf("load");
    expect(await lines(true)).toEqual(["2:4", `13:${load}`]);
    expect(await lines(false)).toEqual([`13:${load}`]);
    expect(await lines(true)).toEqual(["2:4", `13:${load}`]);
    let since = client.notifications.length;
    client.notify("textDocument/didChange", {
      textDocument: { uri: uri(), version: 4 },
      contentChanges: [{ text: `;; moved\n${SINGLE}` }],
    });
    expect(await client.diagnosticsFor(uri(), since)).toEqual([]);
    expect(await lines(true, 3)).toEqual(["3:4", `14:${load}`]);
    expect(await lines(false, 3)).toEqual([`14:${load}`]);
    since = client.notifications.length;
    client.notify("textDocument/didChange", {
      textDocument: { uri: uri(), version: 5 },
      contentChanges: [{ text: SINGLE }],
    });
    expect(await client.diagnosticsFor(uri(), since)).toEqual([]);
    expect(await lines(true)).toEqual(["2:4", `13:${load}`]);
  });

  it("completion offers operators, functions with their parameters and manifest tools at the head, types in type position", async () => {
    const items = await client.request("textDocument/completion", {
      textDocument: { uri: uri() },
      position: { line: 14, character: 5 },
    });
    const byLabel = new Map(items.map((i: any) => [i.label, i]));
    expect(byLabel.get("add")).toBeDefined();
    expect(byLabel.get("load")).toMatchObject({ insertText: "load (path $1)" });
    expect(byLabel.get("read")).toMatchObject({ detail: "tool declared in the manifest" });
    // Types where a type goes (after the parameter's name), not at the head of an expression.
    expect(byLabel.get("String")).toBeUndefined();
    const lines = SINGLE.split("\n");
    const line = lines.findIndex((l) => l.includes("(params (path String))"));
    const types = await client.request("textDocument/completion", {
      textDocument: { uri: uri() },
      position: { line, character: lines[line]!.indexOf("String") },
    });
    expect(types.map((i: any) => i.label)).toContain("String");
    expect(types.every((i: any) => i.kind === 7 && typeof i.sortText === "string")).toBe(true);
  });

  it("document symbols and formatting", async () => {
    const symbols = await client.request("textDocument/documentSymbol", { textDocument: { uri: uri() } });
    expect(symbols.map((s: any) => s.name)).toEqual(["manifest", "contract", "load", "eval"]);
    expect(symbols[2].children.map((c: any) => c.name)).toEqual(["path"]);
    const edits = await client.request("textDocument/formatting", {
      textDocument: { uri: uri() },
      options: { tabSize: 2, insertSpaces: true },
    });
    expect(edits).toHaveLength(1);
    expect(edits[0].newText).toContain(
      '(eval\n  (requires (tools read))\n  (seq (bind n (add 1 2)) (bind doc (load (path "README.md"))) (list n (add n 1))))\n',
    );
  });

  it("a directory package: a functions/ file is re-checked with its package, across files", async () => {
    const fnPath = join(dir, "review-dir.hns/functions/load-change.yao");
    const mainPath = join(dir, "review-dir.hns/programs/main.yao");
    const fnUri = pathToFileURL(fnPath).href;
    const mainUri = pathToFileURL(mainPath).href;
    const { readFileSync } = await import("node:fs");
    const fnText = readFileSync(fnPath, "utf8");
    let since = client.notifications.length;
    client.notify("textDocument/didOpen", {
      textDocument: { uri: fnUri, languageId: "yao", version: 1, text: fnText },
    });
    expect(await client.diagnosticsFor(fnUri, since)).toEqual([]);
    // Unsaved edit: the function now returns Int, which its body does not produce.
    since = client.notifications.length;
    client.notify("textDocument/didChange", {
      textDocument: { uri: fnUri, version: 2 },
      contentChanges: [{ text: fnText.replace("(returns Json)", "(returns Int)") }],
    });
    const ds = await client.diagnosticsFor(fnUri, since);
    expect(ds.length).toBe(1);
    expect(ds[0].code).toBe("yao.type_mismatch");
    // Go to the function's definition from the entry file, which is not open.
    const main = readFileSync(mainPath, "utf8");
    const line = main.split("\n").findIndex((l) => l.includes("load-change"));
    const def = await client.request("textDocument/definition", {
      textDocument: { uri: mainUri },
      position: { line, character: main.split("\n")[line]!.indexOf("load-change") },
    });
    expect(def[0].uri).toBe(fnUri);
  });

  it("harp.json, surface.json and a3s-use-extension.acl: their frontends' checkers run on the unsaved text", async () => {
    const { readFileSync } = await import("node:fs");
    for (const [fixture, file] of [
      ["fixtures/harp/valid-full", "harp.json"],
      ["fixtures/hcp/valid", "surface.json"],
      ["fixtures/a3s/packages/valid-okf", "a3s-use-extension.acl"],
    ] as const) {
      const copy = join(dir, fixture.replaceAll("/", "-"));
      cpSync(join(REPO_ROOT, fixture), copy, { recursive: true });
      const fileUri = pathToFileURL(join(copy, file)).href;
      const text = readFileSync(join(copy, file), "utf8");
      let since = client.notifications.length;
      client.notify("textDocument/didOpen", { textDocument: { uri: fileUri, languageId: "json", version: 1, text } });
      expect(await client.diagnosticsFor(fileUri, since)).toEqual([]);
      since = client.notifications.length;
      client.notify("textDocument/didChange", {
        textDocument: { uri: fileUri, version: 2 },
        contentChanges: [{ text: file.endsWith(".acl") ? text.replace('"', "") : text.replace("{", "[") }],
      });
      const ds = await client.diagnosticsFor(fileUri, since);
      expect(ds.length, file).toBeGreaterThan(0);
      expect(ds[0].severity).toBe(1);
      expect(ds[0].code).toMatch(/^(harp|hcp|a3s)\./);
    }
  });
});
