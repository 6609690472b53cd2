/** The library path runtimes embed: load a package, analyze it, admit model-written programs. */
import { describe, expect, it } from "vitest";
import { admitProgram, analyzePackage, loadFromSource, readOne, sharedTypes } from "../../src/index.js";

const PACKAGE = `
(manifest (id acme.notes) (version "1.0.0") (title "Notes") (capabilities (tools read search)))
(contract (purpose "notes"))
(fn normalize (params (path String)) (returns String) (body path))
(fn load (visibility exported) (description "Load one note") (params (path String)) (returns Json)
  (effects (tool read)) (body (call read (path (normalize (path path))))))
(eval (requires (tools read search)) (types (record Note (path String))) (load (path "a.md")))`;

function pkg() {
  const loaded = loadFromSource("notes.hns", PACKAGE);
  if (!loaded.ok) throw new Error(loaded.diagnostics.map((d) => d.message).join("; "));
  return loaded.package;
}

function program(text: string) {
  const r = readOne(text, { file: "model.yao" });
  if (!r.ok) throw new Error(r.diagnostic.message);
  return r.form;
}

describe("library API: analyzePackage / admitProgram", () => {
  it("analyzes the package entry with internal access", () => {
    const r = analyzePackage(pkg());
    expect(r.diagnostics).toEqual([]);
    expect(r.programHash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("exposes the entry's shared types", () => {
    expect(sharedTypes(pkg()).length).toBe(1);
  });

  it("admits a model program that applies an exported function within its tool bound", () => {
    const r = admitProgram(pkg(), program('(eval (requires (tools read)) (load (path "b.md")))'));
    expect(r.diagnostics).toEqual([]);
  });

  it("rejects applying an internal function from a model program", () => {
    const r = admitProgram(pkg(), program('(eval (requires (tools read)) (normalize (path "b.md")))'));
    expect(r.diagnostics.map((d) => d.code)).toEqual([expect.stringMatching(/^yao\./)]);
  });

  it("rejects a model program whose applied function reaches a tool outside its bound", () => {
    const r = admitProgram(pkg(), program('(eval (requires (tools search)) (load (path "b.md")))'));
    expect(r.diagnostics.map((d) => d.code)).toEqual(["yao.effect_escape"]);
  });

  it("admits only a pure program against an entry with (requires (tools)); a program requiring exec is refused", () => {
    const pure = loaded(`(manifest (id p) (version "1") (title "P") (capabilities (tools exec)))
(contract (purpose "x"))
(infer (requires (tools)) (returns String) "pure")`);
    const refused = admitProgram(pure, program('(infer (requires (tools exec)) (returns Json) (call exec (cmd "x")))'));
    expect(refused.diagnostics.map((d) => [d.code, d.message, d.span?.start.column])).toEqual([
      ["yao.effect_escape", "requires.tools names 'exec', outside the package entry requires.tools set", 25],
    ]);
    expect(admitProgram(pure, program('(infer (requires (tools)) (returns String) "ok")')).diagnostics).toEqual([]);
  });

  it("bounds a program without (requires …) by the entry's tools, not the manifest's", () => {
    const reader = loaded(`(manifest (id r) (version "1") (title "R") (capabilities (tools read exec)))
(contract (purpose "x"))
(eval (requires (tools read)) (call read (path "a")))`);
    const refused = admitProgram(reader, program('(eval (call exec (cmd "x")))'));
    expect(refused.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["yao.effect_escape", "tool 'exec' is outside the package entry requires.tools set"],
    ]);
    expect(admitProgram(reader, program('(eval (call read (path "b")))')).diagnostics).toEqual([]);
  });

  it("an entry without (requires …) is bounded by the manifest's tools", () => {
    const open = loaded(`(manifest (id o) (version "1") (title "O") (capabilities (tools read)))
(contract (purpose "x"))
(eval (call read (path "a")))`);
    expect(admitProgram(open, program('(eval (call read (path "b")))')).diagnostics).toEqual([]);
    expect(admitProgram(open, program('(eval (call exec (cmd "x")))')).diagnostics.map((d) => d.code)).toEqual([
      "yao.effect_escape",
    ]);
  });

  it("a tool reached only through (requires (effects (program …))) is outside the bound too", () => {
    const reader = loaded(`(manifest (id r) (version "1") (title "R") (capabilities (tools read exec)))
(contract (purpose "x"))
(eval (requires (tools read)) (call read (path "a")))`);
    const r = admitProgram(reader, program("(eval (requires (effects (program (tool exec)))) 1)"));
    expect(r.diagnostics.map((d) => d.message)).toEqual([
      "requires.effects reaches tool 'exec', outside the package entry requires.tools set",
    ]);
    expect(admitProgram(reader, program("(eval (requires (effects (program (tool read)))) 1)")).diagnostics).toEqual(
      [],
    );
  });
});

function loaded(text: string) {
  const r = loadFromSource("p.hns", text);
  if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join("; "));
  return r.package;
}
