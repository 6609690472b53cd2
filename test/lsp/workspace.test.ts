/** The language server's browser-safe core (src/lsp/workspace.ts) over an in-memory file system. */
import { describe, expect, it } from "vitest";
// A renderer input of any code: tests may use the builder that is private to src/diagnostics.
import { diagnostic } from "../../src/diagnostics/build.js";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import { toLspDiagnostic } from "../../src/lsp/node-server.js";
import { Workspace } from "../../src/lsp/workspace.js";
import { TextLines } from "../../src/lsp/yao-document.js";
import { FORM_DOCS } from "../../src/yao/forms.js";

const PKG = `(manifest (id t) (version "1") (title "T") (capabilities (tools read)))
(contract (purpose "p"))
(fn mk
  (params (path String) (ok Bool))
  (returns Receipt)
  (body (record Receipt (path path) (verified ok))))
(eval
  (requires (tools read))
  (types (record Receipt (path String) (verified Bool)))
  (get (mk (path "a") (ok true)) verified))
`;
const lines = PKG.split("\n");
const at = (line: number, text: string, delta = 0) => ({ line, character: lines[line]!.indexOf(text) + delta });

function workspace(): Workspace {
  const ws = new Workspace(MemoryFs.from({ "/w/t.hns": PKG }));
  return ws;
}

describe("Workspace", () => {
  it("checks the package: no diagnostics for a valid one", async () => {
    const check = await workspace().check("/w/t.hns");
    expect(check.owner).toEqual({ kind: "hns", root: "/w/t.hns" });
    expect([...check.diagnostics]).toEqual([["/w/t.hns", []]]);
  });

  it("go-to-definition and references of a declared type, across its uses", async () => {
    const ws = workspace();
    const def = await ws.definition("/w/t.hns", at(4, "Receipt"));
    expect(def).toEqual([{ path: "/w/t.hns", range: { start: at(8, "Receipt"), end: at(8, "Receipt", 7) } }]);
    const refs = await ws.references("/w/t.hns", at(4, "Receipt"), false);
    expect(refs.map((r) => r.range.start.line)).toEqual([4, 5]);
  });

  it("parameters: definition, references and hover with the declared type", async () => {
    const ws = workspace();
    const use = at(5, "(verified ok)", 10);
    expect((await ws.definition("/w/t.hns", use))[0]!.range.start).toEqual(at(3, "(ok Bool)", 1));
    const refs = await ws.references("/w/t.hns", use, true);
    expect(refs.map((r) => r.range.start)).toEqual([at(3, "(ok Bool)", 1), use]);
    const hover = await ws.hover("/w/t.hns", at(3, "(path String)", 1));
    expect(hover?.markdown).toContain("path : String");
  });

  it("hover gives the inferred type of an expression from the typed IR", async () => {
    const hover = await workspace().hover("/w/t.hns", at(9, "(get", 1));
    expect(hover?.markdown).toContain("(get E FIELD)");
    // The operator's documentation is the language table's row, the one docs/language.md prints.
    const row = FORM_DOCS.get("get")!;
    expect(hover?.markdown).toContain(row.meaning);
    expect(hover?.markdown).toContain(row.type);
    expect(hover?.markdown).toContain("(decode TYPE E)");
    expect(hover?.markdown).not.toContain("Json → Json");
    const whole = await workspace().hover("/w/t.hns", at(9, "(mk", 0));
    expect(whole?.markdown).toContain("Receipt");
  });

  it("completion includes record fields of declared records and the function with its parameters", async () => {
    const items = await workspace().completion("/w/t.hns");
    expect(items.filter((i) => i.kind === "field").map((i) => i.label)).toEqual(["path", "verified"]);
    expect(items.find((i) => i.label === "mk")?.snippet).toBe("mk (path $1) (ok $2)");
    expect(items.find((i) => i.label === "Receipt")?.kind).toBe("type");
  });

  it("symbols and folding ranges", async () => {
    const ws = workspace();
    const symbols = await ws.symbols("/w/t.hns");
    expect(symbols.map((s) => [s.name, s.kind])).toEqual([
      ["manifest", "module"],
      ["contract", "object"],
      ["mk", "function"],
      ["eval", "event"],
    ]);
    expect(symbols[3]!.children.map((c) => [c.name, c.kind])).toEqual([["Receipt", "struct"]]);
    const folds = await ws.foldingRanges("/w/t.hns");
    expect(folds).toContainEqual({ startLine: 2, endLine: 5 });
    expect(folds).toContainEqual({ startLine: 6, endLine: 9 });
  });

  it("an unsaved edit is what gets checked; closing returns to the file on disk", async () => {
    const ws = workspace();
    ws.open("/w/t.hns", PKG.replace("(ok true)", '(ok "yes")'));
    const bad = await ws.check("/w/t.hns");
    expect(bad.diagnostics.get("/w/t.hns")!.map((d) => d.code)).toEqual(["yao.type_mismatch"]);
    ws.close("/w/t.hns");
    expect((await ws.check("/w/t.hns")).diagnostics.get("/w/t.hns")).toEqual([]);
  });

  it("a lone .yao program is read and analysed on its own", async () => {
    const ws = new Workspace(MemoryFs.from({ "/w/p.yao": '(eval (add 1 "x"))' }));
    const check = await ws.check("/w/p.yao");
    expect(check.owner.kind).toBe("yao");
    expect(check.diagnostics.get("/w/p.yao")!.map((d) => d.code)).toEqual(["yao.type_mismatch"]);
    const unread = new Workspace(MemoryFs.from({ "/w/q.yao": "(eval (add 1" }));
    expect((await unread.check("/w/q.yao")).diagnostics.get("/w/q.yao")!.map((d) => d.code)).toEqual([
      "yao.unclosed_list",
    ]);
  });
});

describe("toLspDiagnostic", () => {
  it("maps severity, code, columns in Unicode scalars to UTF-16, hints and related locations", () => {
    const text = '(a "😀" b)\n(c)';
    const d = diagnostic("yao.demo", "something", {
      severity: "warning",
      file: "/w/x.yao",
      span: { start: { byte: 11, line: 1, column: 8 }, end: { byte: 12, line: 1, column: 9 } },
      hint: "fix it",
      related: [
        {
          file: "/w/x.yao",
          span: { start: { byte: 12, line: 2, column: 1 }, end: { byte: 15, line: 2, column: 4 } },
          message: "see here",
        },
      ],
    });
    const l = toLspDiagnostic(d, new TextLines(text));
    expect(l.severity).toBe(2);
    expect(l.code).toBe("yao.demo");
    // `b` is column 8 (the astral character is one scalar) but UTF-16 character 8 as well only
    // because the emoji takes two units where it took one column: 1-based 8 → 0-based 7 + 1.
    expect(l.range).toEqual({ start: { line: 0, character: 8 }, end: { line: 0, character: 9 } });
    // The help is a note at the primary range, not folded into the message text.
    expect(l.message).toBe("something");
    expect(l.relatedInformation).toEqual([
      {
        location: {
          uri: "file:///w/x.yao",
          range: { start: { line: 1, character: 0 }, end: { line: 1, character: 3 } },
        },
        message: "see here",
      },
      { location: { uri: "file:///w/x.yao", range: l.range }, message: "help: fix it" },
    ]);
  });

  it("spells no absolute path in the message: the file from its package, or its name", () => {
    const at = { start: { byte: 0, line: 1, column: 1 }, end: { byte: 1, line: 1, column: 2 } };
    const dir = diagnostic(
      "yao.unclosed_list",
      "/home/me/p.hns/programs/main.yao is not valid typed Yao: unclosed list",
      {
        file: "/home/me/p.hns/programs/main.yao",
        span: at,
      },
    );
    expect(toLspDiagnostic(dir, new TextLines("(")).message).toBe(
      "p.hns/programs/main.yao is not valid typed Yao: unclosed list",
    );
    const single = diagnostic("yao.unclosed_list", "/home/me/p.hns is not valid typed Yao: unclosed list", {
      file: "/home/me/p.hns",
      span: at,
    });
    expect(toLspDiagnostic(single, new TextLines("(")).message).toBe("p.hns is not valid typed Yao: unclosed list");
  });
});
