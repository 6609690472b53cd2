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
});
