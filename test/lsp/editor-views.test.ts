/**
 * What the editor shows beside the text: semantic tokens (and their delta), inlay hints, signature
 * help and workspace symbols, computed by their modules over an in-memory workspace.
 */
import { describe, expect, it } from "vitest";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import { inlayHints } from "../../src/lsp/inlay-hints.js";
import { packageView } from "../../src/lsp/package-index.js";
import { classify, encodeTokens, TOKEN_TYPES, tokenDelta } from "../../src/lsp/semantic-tokens.js";
import { signatureHelp } from "../../src/lsp/signature-help.js";
import { Workspace } from "../../src/lsp/workspace.js";
import { workspaceSymbols } from "../../src/lsp/workspace-symbols.js";

const SRC = `; a demo
(manifest (id t) (version "1") (title "T") (capabilities (tools read)))
(contract (purpose "p"))
(fn load
  (visibility exported)
  (description "Read one file")
  (params (path String) (limit Int))
  (returns Json)
  (effects (tool read))
  (body (call read (path path))))
(fn twice (params (n Int)) (returns Int) (body (mul n 2)))
(eval
  (requires (tools read))
  (types (record R (size Int)))
  (seq
    (bind doc (load (path "a") (limit 3)))
    (bind r (record R (size (twice (n 2)))))
    (list (eq r.size (twice (n 1))) true (lt 1.5e0 2.0))))
`;
const ALL = { start: { line: 0, character: 0 }, end: { line: 99, character: 0 } };

function wordAt(text: string, from: number, to: number): string {
  return text.slice(from, to);
}

describe("semantic tokens", () => {
  it("classifies functions, parameters, bindings, types, fields, tools, built-ins, keywords, literals and comments", async () => {
    const ws = new Workspace(MemoryFs.from({ "/w/t.hns": SRC }));
    const { index } = await packageView(ws, "/w/t.hns");
    const tokens = classify(SRC, "/w/t.hns", index);
    const seen = (type: string): string[] =>
      tokens.filter((t) => t.type === type).map((t) => wordAt(SRC, t.from, t.to));
    expect(seen("comment")).toEqual(["; a demo"]);
    expect(seen("function")).toEqual(["load", "twice", "load", "twice", "twice"]);
    expect(seen("parameter")).toEqual(["path", "limit", "path", "path", "n", "n", "path", "limit", "n", "n"]);
    expect(seen("variable")).toEqual(["doc", "r", "r"]);
    expect(seen("type")).toEqual(["String", "Int", "Json", "Int", "Int", "R", "Int", "R"]);
    expect(seen("property")).toEqual(["size", "size", "size"]);
    expect(seen("interface")).toEqual(["read", "read", "read", "read"]);
    expect(seen("operator")).toEqual(["mul", "eq", "lt"]);
    expect(seen("number")).toEqual(["2", "3", "2", "1", "1.5e0", "2.0"]);
    expect(seen("string")).toContain('"Read one file"');
    expect(seen("keyword")).toEqual(
      expect.arrayContaining(["manifest", "fn", "visibility", "exported", "seq", "bind", "call", "true"]),
    );
    const builtinTypes = tokens.filter((t) => t.type === "type" && t.builtin).map((t) => wordAt(SRC, t.from, t.to));
    expect(builtinTypes).not.toContain("R");
    for (let i = 1; i < tokens.length; i++) expect(tokens[i]!.from).toBeGreaterThanOrEqual(tokens[i - 1]!.to);
  });

  it("encodes block strings one line at a time, and a delta rebuilds the new encoding", async () => {
    const text = `(contract (purpose """line one\nline two"""))\n`;
    const ws = new Workspace(MemoryFs.from({ "/w/c.yao": text }));
    const doc = await ws.document("/w/c.yao");
    const data = encodeTokens(classify(text, "/w/c.yao", undefined), doc.lines);
    const str = TOKEN_TYPES.indexOf("string");
    expect(data).toEqual([0, 19, 11, str, 0, 1, 0, 11, str, 0]);
    const before = [0, 0, 3, 1, 0, 0, 4, 2, 2, 0, 1, 0, 5, 3, 0];
    const after = [0, 0, 3, 1, 0, 0, 4, 7, 2, 0, 0, 8, 1, 1, 0, 1, 0, 5, 3, 0];
    const edits = tokenDelta(before, after);
    const rebuilt = [...before];
    for (const e of edits.reverse()) rebuilt.splice(e.start, e.deleteCount, ...e.data);
    expect(rebuilt).toEqual(after);
    expect(edits[0]!.start % 5).toBe(0);
    expect(tokenDelta(after, after)).toEqual([]);
  });
});

describe("inlay hints", () => {
  it("bind types, call results not shown by a bind, and effect summaries", async () => {
    const ws = new Workspace(MemoryFs.from({ "/w/t.hns": SRC }));
    const hints = await inlayHints(ws, "/w/t.hns", ALL);
    const lines = SRC.split("\n");
    // Each hint as "the text just before it" + its label.
    const shown = hints.map((h) => `${lines[h.position.line]!.slice(0, h.position.character).slice(-12)}|${h.label}`);
    expect(shown).toEqual([
      "(fn load|⟨tool read⟩",
      "(path path))| → Json",
      "(fn twice|⟨pure⟩",
      "   (bind doc|: Json",
      "    (bind r|: R",
      "twice (n 2))| → Int",
      "twice (n 1))| → Int",
    ]);
    // `(load …)` is the value of a bind: the bind's hint already says Json.
    expect(hints.filter((h) => h.label === " → Json")).toHaveLength(1);
  });

  it("stay correct after an edit the check has not seen yet", async () => {
    const ws = new Workspace(MemoryFs.from({ "/w/t.hns": SRC }));
    await inlayHints(ws, "/w/t.hns", ALL);
    const edited = SRC.replace('(bind doc (load (path "a") (limit 3)))', '(bind doc "text")');
    ws.open("/w/t.hns", edited);
    const hints = await inlayHints(ws, "/w/t.hns", ALL);
    const doc = hints.find(
      (h) => h.label.startsWith(": ") && edited.split("\n")[h.position.line]!.includes("bind doc"),
    );
    expect(doc?.label).toBe(": String");
    expect(doc?.position.character).toBe(edited.split("\n")[15]!.indexOf("doc") + 3);
  });
});

describe("signature help", () => {
  const ws = new Workspace(MemoryFs.from({ "/w/t.hns": SRC }));
  const line = SRC.split("\n")[15]!;
  it("a package function: named parameters with types, the active one where the cursor is", async () => {
    const s = await signatureHelp(ws, "/w/t.hns", { line: 15, character: line.indexOf("(limit") + 3 });
    expect(s?.label).toBe("(load (path String) (limit Int)) → Json");
    expect(s?.documentation).toBe("Read one file");
    expect(s?.parameters.map((p) => s.label.slice(...p.label))).toEqual(["(path String)", "(limit Int)"]);
    expect(s?.activeParameter).toBe(1);
    const first = await signatureHelp(ws, "/w/t.hns", { line: 15, character: line.indexOf("(path") + 2 });
    expect(first?.activeParameter).toBe(0);
  });

  it("a built-in form: its shape, the active part by position", async () => {
    const l17 = SRC.split("\n")[17]!;
    const s = await signatureHelp(ws, "/w/t.hns", { line: 17, character: l17.indexOf("true") });
    expect(s?.label).toBe("(list E...)");
    expect(s?.activeParameter).toBe(0);
    const bind = await signatureHelp(ws, "/w/t.hns", { line: 15, character: line.indexOf("doc") + 1 });
    expect(bind?.label).toBe("(bind NAME E)");
    expect(bind?.activeParameter).toBe(0);
    const value = await signatureHelp(ws, "/w/t.hns", { line: 15, character: line.indexOf("(load") });
    expect(value?.activeParameter).toBe(1);
  });
});

describe("workspace symbols", () => {
  it("finds functions and types of every package under the folders, by subsequence", async () => {
    const ws = new Workspace(
      MemoryFs.from({
        "/w/a/t.hns": SRC,
        "/w/b/d.hns/manifest.yao": "(manifest (id d))",
        "/w/b/d.hns/functions/load-change.yao": "(fn load-change (params) (returns Int) (body 1))",
        "/w/node_modules/x.hns": "(fn load-hidden (params) (returns Int) (body 1))",
        "/elsewhere/e.hns": "(fn load-outside (params) (returns Int) (body 1))",
      }),
    );
    const found = await workspaceSymbols(ws, ["/w"], "LD");
    expect(found.map((s) => [s.name, s.kind, s.container])).toEqual([
      ["load", "function", "t.hns"],
      ["load-change", "function", "d.hns"],
    ]);
    expect((await workspaceSymbols(ws, ["/w"], "r")).map((s) => s.name)).toEqual(["R"]);
    expect((await workspaceSymbols(ws, ["/w"], "")).map((s) => s.name)).toEqual(["load", "twice", "R", "load-change"]);
  });
});

describe("in a directory package", () => {
  const files = {
    "/w/d.hns/manifest.yao": `(manifest (id d) (version "1") (title "D") (entry "main.yao") (capabilities (tools read)))`,
    "/w/d.hns/contract.yao": `(contract (purpose "p"))`,
    "/w/d.hns/functions/size.yao": `(fn size (params (r R)) (returns Int) (body (seq (bind s r.size) s)))\n`,
    "/w/d.hns/main.yao": `(eval (requires (tools)) (types (record R (size Int))) (seq (bind n (size (r (record R (size 2))))) n))\n`,
  };
  const fn = "/w/d.hns/functions/size.yao";

  it("hints, tokens and signature help in a function file see the package's types and functions", async () => {
    const ws = new Workspace(MemoryFs.from(files));
    expect([...(await ws.check(fn)).diagnostics.values()].flat()).toEqual([]);
    const hints = await inlayHints(ws, fn, ALL);
    expect(hints.map((h) => h.label)).toEqual(["⟨pure⟩", ": Int"]);
    const mainHints = await inlayHints(ws, "/w/d.hns/main.yao", ALL);
    expect(mainHints.map((h) => h.label)).toEqual([": Int"]);
    const { index } = await packageView(ws, fn);
    const text = files[fn];
    const kinds = classify(text, fn, index).map((t) => `${text.slice(t.from, t.to)}:${t.type}`);
    expect(kinds).toEqual(
      expect.arrayContaining(["size:function", "r:parameter", "R:type", "s:variable", "size:property"]),
    );
    const main = files["/w/d.hns/main.yao"];
    const help = await signatureHelp(ws, "/w/d.hns/main.yao", { line: 0, character: main.indexOf("(r (record") + 1 });
    expect(help?.label).toBe("(size (r R)) → Int");
  });
});
