/**
 * Quick fixes (src/lsp/code-actions.ts): each is applied to the package and the package re-checked;
 * the diagnostic it was offered for is gone (and here, every diagnostic).
 */
import { describe, expect, it } from "vitest";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import { quickFixes } from "../../src/lsp/code-actions.js";
import { Workspace } from "../../src/lsp/workspace.js";
import { TextLines } from "../../src/lsp/yao-document.js";
import { applyEdits } from "./apply-edits.js";

const HEAD = `(manifest (id t) (version "1") (title "T") (capabilities (tools read)))
(contract (purpose "p"))
`;
const LOAD = `(fn load
  (visibility exported)
  (description "Read one file")
  (params (path String))
  (returns Json)
  (effects (tool read))
  (body (call read (path path))))
`;

async function diagnosticsOf(files: Record<string, string>, path: string) {
  return [...(await new Workspace(MemoryFs.from(files)).check(path)).diagnostics.values()].flat();
}

/** Check, take the one fix offered at the first diagnostic of `path`, apply it, re-check. */
async function fixOnce(files: Record<string, string>, path: string, code: string) {
  const ws = new Workspace(MemoryFs.from(files));
  const before = [...(await ws.check(path)).diagnostics.values()].flat();
  const d = before.find((x) => x.code === code);
  if (d === undefined) throw new Error(`no ${code} in ${JSON.stringify(before.map((x) => x.message))}`);
  const file = d.file === undefined || d.file.startsWith("/") ? (d.file ?? path) : path;
  const lines = new TextLines(files[file]!);
  const range = d.span
    ? lines.rangeOfSpan(d.span)
    : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const fixes = await quickFixes(ws, file, range);
  expect(fixes.length).toBeGreaterThan(0);
  const fix = fixes[0]!;
  const after = { ...files };
  for (const [f, edits] of fix.edits) after[f] = applyEdits(after[f]!, edits);
  return { fix, after, diagnostics: await diagnosticsOf(after, path) };
}

describe("quick fixes", () => {
  it("did-you-mean for a binding", async () => {
    const src = `${HEAD}(eval (seq (bind total 1) (add totl 2)))\n`;
    const r = await fixOnce({ "/w/t.hns": src }, "/w/t.hns", "yao.unknown_name");
    expect(r.fix.title).toBe("Change 'totl' to 'total'");
    expect(r.after["/w/t.hns"]).toContain("(add total 2)");
    expect(r.diagnostics).toEqual([]);
  });

  it("did-you-mean for an operator", async () => {
    const r = await fixOnce({ "/w/t.hns": `${HEAD}(eval (mull 1 2))\n` }, "/w/t.hns", "yao.unknown_operator");
    expect(r.after["/w/t.hns"]).toContain("(eval (mul 1 2))");
    expect(r.diagnostics).toEqual([]);
  });

  it("did-you-mean for a tool, in a function", async () => {
    const src = `${HEAD}${LOAD.replace("(call read", "(call reed")}(eval (requires (tools read)) (load (path "a")))\n`;
    const r = await fixOnce({ "/w/t.hns": src }, "/w/t.hns", "yao.unknown_name");
    expect(r.after["/w/t.hns"]).toContain("(call read (path path))");
    expect(r.diagnostics).toEqual([]);
  });

  it("did-you-mean for a field read by get and by a dotted reference", async () => {
    const types = "(types (record R (name String) (size Int)))";
    for (const [body, fixed] of [
      ['(get (record R (name "a") (size 1)) sise)', '(get (record R (name "a") (size 1)) size)'],
      ['(seq (bind r (record R (name "a") (size 1))) r.nmae)', "r.name)"],
    ] as const) {
      const r = await fixOnce({ "/w/t.hns": `${HEAD}(eval ${types} ${body})\n` }, "/w/t.hns", "yao.type_mismatch");
      expect(r.after["/w/t.hns"]).toContain(fixed);
      expect(r.diagnostics).toEqual([]);
    }
  });

  it("did-you-mean for a field of a record construction and an fn clause", async () => {
    const types = "(types (record R (name String)))";
    let r = await fixOnce(
      { "/w/t.hns": `${HEAD}(eval ${types} (record R (nme "a")))\n` },
      "/w/t.hns",
      "yao.unknown_name",
    );
    expect(r.after["/w/t.hns"]).toContain('(record R (name "a"))');
    expect(r.diagnostics).toEqual([]);
    r = await fixOnce(
      {
        "/w/t.hns": `${HEAD}${LOAD.replace("(returns", "(retruns")}(eval (requires (tools read)) (load (path "a")))\n`,
      },
      "/w/t.hns",
      "yao.unknown_name",
    );
    expect(r.after["/w/t.hns"]).toContain("(returns Json)");
    expect(r.diagnostics).toEqual([]);
  });

  it("adds a tool the program calls to the manifest's capabilities and the entry's requires", async () => {
    const src = `${HEAD}(eval (requires (tools read)) (call search (q "x")))\n`;
    const r = await fixOnce({ "/w/t.hns": src }, "/w/t.hns", "yao.effect_escape");
    expect(r.fix.title).toBe("Add tool 'search' to the manifest's capabilities and the entry's requires");
    expect(r.after["/w/t.hns"]).toContain("(capabilities (tools read search))");
    expect(r.after["/w/t.hns"]).toContain("(requires (tools read search))");
    expect(r.diagnostics).toEqual([]);
  });

  it("adds a tool to a directory package's manifest.yao", async () => {
    const files = {
      "/w/d.hns/manifest.yao": `(manifest (id d) (version "1") (title "D") (entry "main.yao"))`,
      "/w/d.hns/contract.yao": `(contract (purpose "p"))`,
      "/w/d.hns/main.yao": `(eval (call search (q "x")))\n`,
    };
    const r = await fixOnce(files, "/w/d.hns/main.yao", "yao.unknown_name");
    expect(r.fix.title).toBe("Add tool 'search' to the manifest's capabilities");
    expect(r.after["/w/d.hns/manifest.yao"]).toContain('(entry "main.yao") (capabilities (tools search)))');
    expect(r.diagnostics).toEqual([]);
  });

  it("adds a tool the requires names to the manifest", async () => {
    const src = `${HEAD.replace("(capabilities (tools read))", "(capabilities (skills s))")}(eval (requires (tools search)) (call search (q "x")))\n`;
    const r = await fixOnce({ "/w/t.hns": src }, "/w/t.hns", "hns.tool_not_in_manifest");
    expect(r.after["/w/t.hns"]).toContain("(capabilities (skills s) (tools search))");
    expect(r.diagnostics).toEqual([]);
  });

  it("adds a description stub to an exported function", async () => {
    const src = `${HEAD}${LOAD.replace('  (description "Read one file")\n', "")}(eval (requires (tools read)) (load (path "a")))\n`;
    const r = await fixOnce({ "/w/t.hns": src }, "/w/t.hns", "yao.missing_description");
    expect(r.after["/w/t.hns"]).toContain(
      '  (visibility exported)\n  (description "TODO: say what load does and when to call it")\n  (params',
    );
    expect(r.diagnostics).toEqual([]);
  });

  it("closes unclosed lists after the last token, not inside a trailing comment", async () => {
    const src = `${HEAD}(eval (seq (bind a 1)\n  (add a "x;y" 2\n; a comment (\n`;
    const r = await fixOnce({ "/w/t.hns": src }, "/w/t.hns", "yao.unclosed_list");
    expect(r.fix.title).toBe("Close the 3 open lists: insert ')))'");
    expect(r.after["/w/t.hns"]).toContain('(add a "x;y" 2)))\n; a comment (\n');
    expect(r.diagnostics.map((d) => d.code)).not.toContain("yao.unclosed_list");
  });

  it("offers nothing when the text no longer says what the diagnostic was about", async () => {
    const ws = new Workspace(MemoryFs.from({ "/w/t.hns": `${HEAD}(eval (ad 1 2))\n` }));
    await ws.check("/w/t.hns");
    ws.open("/w/t.hns", `${HEAD}(eval (or true false))\n`);
    const fixes = await quickFixes(ws, "/w/t.hns", {
      start: { line: 2, character: 0 },
      end: { line: 2, character: 30 },
    });
    expect(fixes).toEqual([]);
  });
});
