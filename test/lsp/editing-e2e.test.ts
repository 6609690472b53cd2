/**
 * The editing features through the real `yaoc lsp` process: rename (with its refusals and the
 * identity note), quick fixes, and malformed requests, which get error answers while the server
 * keeps serving.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LspClient } from "./client.js";
import { applyEdits } from "./apply-edits.js";

const SRC = `(manifest (id demo) (version "1") (title "Demo") (capabilities (tools read)))
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
  (seq (bind doc (load (path "README.md"))) (add dox 1)))
`;

let dir: string;
let client: LspClient;
let uri: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "yaoc-lsp-edit-"));
  writeFileSync(join(dir, "demo.hns"), SRC);
  uri = pathToFileURL(join(dir, "demo.hns")).href;
  client = await LspClient.start(dir, {
    workspace: { workspaceEdit: { documentChanges: true, changeAnnotationSupport: {} } },
  });
  const since = client.notifications.length;
  client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "yao", version: 1, text: SRC } });
  await client.diagnosticsFor(uri, since);
});

afterAll(async () => {
  expect(await client.stop()).toBe(0);
  rmSync(dir, { recursive: true, force: true });
});

describe("yaoc lsp editing features", () => {
  it("announces rename with prepare and quick fixes", () => {
    expect(client.initialized.capabilities.renameProvider).toEqual({ prepareProvider: true });
    expect(client.initialized.capabilities.codeActionProvider.codeActionKinds).toContain("quickfix");
  });

  it("renames a function: versioned document edits with the identity note", async () => {
    const position = { line: 2, character: 5 };
    expect(await client.request("textDocument/prepareRename", { textDocument: { uri }, position })).toEqual({
      range: { start: { line: 2, character: 4 }, end: { line: 2, character: 8 } },
      placeholder: "load",
    });
    const edit = await client.request("textDocument/rename", { textDocument: { uri }, position, newName: "fetch" });
    expect(edit.documentChanges).toHaveLength(1);
    expect(edit.documentChanges[0].textDocument).toEqual({ uri, version: 1 });
    expect(edit.documentChanges[0].edits.every((e: any) => e.annotationId === "yaoc.identity")).toBe(true);
    expect(edit.changeAnnotations["yaoc.identity"].description).toMatch(/package identity changes/);
    const after = applyEdits(SRC, edit.documentChanges[0].edits);
    expect(after).toContain("(fn fetch");
    expect(after).toContain('(bind doc (fetch (path "README.md")))');
  });

  it("refuses a rename with the reason as the error message", async () => {
    await expect(
      client.request("textDocument/rename", {
        textDocument: { uri },
        position: { line: 2, character: 5 },
        newName: "not valid",
      }),
    ).rejects.toThrow(/not a valid Yao name/);
    await expect(
      client.request("textDocument/prepareRename", { textDocument: { uri }, position: { line: 8, character: 14 } }),
    ).rejects.toThrow(/'read' is a tool/);
  });

  it("offers the did-you-mean as a quick fix that carries its diagnostic", async () => {
    const actions = await client.request("textDocument/codeAction", {
      textDocument: { uri },
      range: { start: { line: 11, character: 50 }, end: { line: 11, character: 50 } },
      context: { diagnostics: [] },
    });
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({ title: "Change 'dox' to 'doc'", kind: "quickfix", isPreferred: true });
    expect(actions[0].diagnostics[0].code).toBe("yao.unknown_name");
  });

  it("semantic tokens with the legend, and a delta against the last result", async () => {
    const legend = client.initialized.capabilities.semanticTokensProvider.legend;
    expect(legend.tokenTypes).toContain("function");
    const full = await client.request("textDocument/semanticTokens/full", { textDocument: { uri } });
    expect(full.data.length % 5).toBe(0);
    // The first token is `manifest` at 0:1, a keyword.
    expect(full.data.slice(0, 5)).toEqual([0, 1, 8, legend.tokenTypes.indexOf("keyword"), 0]);
    const same = await client.request("textDocument/semanticTokens/full/delta", {
      textDocument: { uri },
      previousResultId: full.resultId,
    });
    expect(same.edits).toEqual([]);
    const unknown = await client.request("textDocument/semanticTokens/full/delta", {
      textDocument: { uri },
      previousResultId: "no such result",
    });
    expect(unknown.data).toEqual(full.data);
  });

  it("inlay hints (once the text checks), signature help and workspace symbols", async () => {
    const since = client.notifications.length;
    client.notify("textDocument/didChange", {
      textDocument: { uri, version: 2 },
      contentChanges: [{ text: SRC.replace("(add dox 1)", "(list doc)") }],
    });
    expect(await client.diagnosticsAt(uri, 2, since)).toEqual([]);
    const hints = await client.request("textDocument/inlayHint", {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 20, character: 0 } },
    });
    expect(hints.map((h: any) => h.label)).toEqual(["⟨tool read⟩", " → Json", ": Json"]);
    expect(hints[2].position).toEqual({ line: 11, character: 16 });
    const help = await client.request("textDocument/signatureHelp", {
      textDocument: { uri },
      position: { line: 11, character: 24 },
    });
    expect(help.signatures[0].label).toBe("(load (path String)) → Json");
    const symbols = await client.request("workspace/symbol", { query: "lo" });
    expect(symbols.map((x: any) => [x.name, x.location.uri])).toEqual([["load", uri]]);
  });

  it("answers malformed requests with errors and keeps serving", async () => {
    const bad: [string, unknown][] = [
      ["textDocument/rename", null],
      ["textDocument/rename", { textDocument: { uri }, position: { line: -1, character: 0 }, newName: "x" }],
      ["textDocument/rename", { textDocument: { uri }, position: { line: 2, character: 5 }, newName: 7 }],
      ["textDocument/prepareRename", { textDocument: {}, position: { line: 0, character: 0 } }],
      ["textDocument/prepareRename", { textDocument: { uri: "file:///%zz" }, position: { line: 0, character: 0 } }],
      ["textDocument/codeAction", { textDocument: { uri }, range: "everything" }],
      ["textDocument/codeAction", [1, 2, 3]],
      [
        "textDocument/inlayHint",
        { textDocument: { uri }, range: { start: { line: 0 }, end: { line: 1, character: 0 } } },
      ],
      ["textDocument/signatureHelp", { textDocument: { uri: 42 }, position: { line: 0, character: 0 } }],
      ["textDocument/semanticTokens/full", { textDocument: null }],
      ["textDocument/semanticTokens/full/delta", { textDocument: { uri: "" }, previousResultId: "1" }],
      ["workspace/symbol", { query: { $gt: "" } }],
    ];
    for (const [method, params] of bad) await expect(client.request(method, params)).rejects.toThrow();
    // Far outside the text is clamped, not an error.
    expect(
      await client.request("textDocument/codeAction", {
        textDocument: { uri },
        range: { start: { line: 9999, character: 9999 }, end: { line: 99999, character: 0 } },
        context: { diagnostics: [] },
      }),
    ).toEqual([]);
    const hover = await client.request("textDocument/hover", {
      textDocument: { uri },
      position: { line: 2, character: 5 },
    });
    expect(hover.contents.value).toContain("load");
  });
});
