/**
 * Issue 28, item 4: HNS §6.4 — "title is human-readable display text; it must not be used for
 * identity, authorization or dependency resolution".
 *
 * The decision (seed 000 §6.3/§6.4 win; nothing here diverges from the seed, so docs/divergences.md
 * has no row): the identity is the sha256 content hash of the canonical package, and the title is
 * part of that content, so changing the title changes the identity exactly like any other content
 * change. The title is never a key: the catalog binds and looks up (id, version) only, two packages
 * that share a title are two packages, a title that names a tool grants nothing, and two packages
 * with the same (id, version) that differ only in title are refused by §6.3's (id, version) rule
 * (`catalog.conflict`), not by anything about the title.
 */
import { describe, expect, it } from "vitest";
import { Catalog, MemoryCatalogStore } from "../../src/catalog/index.js";
import { admitProgram, checkSource, loadFromSource, readOne } from "../../src/index.js";
import { MemoryFs } from "../../src/fs/memory-fs.js";

const pkgText = (id: string, version: string, title: string, body = "42", tools = "read") =>
  [
    `(manifest (id ${JSON.stringify(id)}) (version ${JSON.stringify(version)}) (title ${JSON.stringify(title)}) (capabilities (tools ${tools})))`,
    `(contract (purpose "title tests"))`,
    `(eval ${body})`,
  ].join("\n");

const install = (cat: Catalog, text: string) => cat.install(MemoryFs.from({ "/p.hns": text }), "/p.hns");

describe("the title is never an identity key (HNS §6.4)", () => {
  it("two packages with the same title and different ids both install and resolve separately", async () => {
    const cat = new Catalog(new MemoryCatalogStore());
    const a = await install(cat, pkgText("acme.a", "1.0.0", "Shared Title"));
    const b = await install(cat, pkgText("acme.b", "1.0.0", "Shared Title"));
    expect([a.status, b.status]).toEqual(["installed", "installed"]);
    expect(a.diagnostics.concat(b.diagnostics).filter((d) => d.severity === "error")).toEqual([]);
    expect(a.identity).not.toBe(b.identity);
    const list = await cat.list();
    expect(list.entries.map((e) => [e.id, e.identity])).toEqual([
      ["acme.a", a.identity],
      ["acme.b", b.identity],
    ]);
    const gotA = await cat.resolve("acme.a@1.0.0");
    const gotB = await cat.get("acme.b", "1.0.0");
    expect(gotA.ok && gotA.package.identity).toBe(a.identity);
    expect(gotB.ok && gotB.package.identity).toBe(b.identity);
    expect(gotA.ok && gotA.package.manifest.id).toBe("acme.a");
    expect(gotB.ok && gotB.package.manifest.id).toBe("acme.b");
  });

  it("catalog lookup never matches by title", async () => {
    const cat = new Catalog(new MemoryCatalogStore());
    const a = await install(cat, pkgText("acme.a", "1.0.0", "Notes"));
    expect(a.status).toBe("installed");
    // Control: the (id, version) key finds it.
    expect((await cat.get("acme.a", "1.0.0")).ok).toBe(true);
    for (const miss of [await cat.get("Notes", "1.0.0"), await cat.resolve("Notes@1.0.0")]) {
      expect(miss.ok).toBe(false);
      if (!miss.ok) expect(miss.diagnostics.map((d) => d.code)).toEqual(["catalog.not_found"]);
    }
  });

  it("same (id, version), differing only in title: a different identity, refused by the (id, version) rule", async () => {
    const cat = new Catalog(new MemoryCatalogStore());
    const first = await install(cat, pkgText("acme.a", "1.0.0", "Old Title"));
    const second = await install(cat, pkgText("acme.a", "1.0.0", "New Title"));
    expect(first.status).toBe("installed");
    // The title is content: a title change changes the identity like any other content change.
    expect(second.identity).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(second.identity).not.toBe(first.identity);
    expect(second.status).toBe("conflict");
    expect(second.diagnostics.map((d) => d.code)).toEqual(["catalog.conflict"]);
    expect(second.diagnostics[0]!.message).toContain("'acme.a@1.0.0'");
    const kept = await cat.get("acme.a", "1.0.0");
    expect(kept.ok && [kept.package.identity, kept.package.manifest.title]).toEqual([first.identity, "Old Title"]);
    // Control: the new title under a new version installs; the title itself is no obstacle.
    expect((await install(cat, pkgText("acme.a", "1.0.1", "New Title"))).status).toBe("installed");
  });

  it("a title that names a tool grants nothing, in check and in admission", async () => {
    const call = '(call exec (cmd "x"))';
    const titled = await checkSource("p.hns", pkgText("acme.t", "1", "exec", call));
    expect(titled.valid).toBe(false);
    expect(titled.diagnostics.map((d) => d.code)).toEqual(["yao.unknown_name"]);
    // Control: granting exec in the manifest's tools is what makes the same call valid.
    expect((await checkSource("p.hns", pkgText("acme.t", "1", "exec", call, "read exec"))).valid).toBe(true);

    const loaded = loadFromSource("p.hns", pkgText("acme.t", "1", "exec", '(call read (path "a"))'));
    if (!loaded.ok) throw new Error(loaded.diagnostics.map((d) => d.message).join("; "));
    const program = (text: string) => {
      const r = readOne(text, { file: "model.yao" });
      if (!r.ok) throw new Error(r.diagnostic.message);
      return r.form;
    };
    const refused = admitProgram(loaded.package, program(`(eval (requires (tools exec)) ${call})`));
    expect(refused.diagnostics.map((d) => d.code)).toContain("yao.effect_escape");
    expect(
      admitProgram(loaded.package, program('(eval (requires (tools read)) (call read (path "b")))')).diagnostics,
    ).toEqual([]);
  });
});
