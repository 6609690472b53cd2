/** The catalog library over the in-memory store and the Node store, in one process. */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Catalog, MemoryCatalogStore, type CatalogStore } from "../../src/catalog/index.js";
import { CATALOG_CODES } from "../../src/catalog/codes.js";
import { bindingPath, FORMAT_TEXT, objectPath } from "../../src/catalog/layout.js";
import { defaultCatalogDir, NodeCatalogStore, openCatalog } from "../../src/catalog/node-store.js";
import { NodeFs } from "../../src/fs/node-fs.js";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import { check } from "../../src/check/check.js";
import { loadFromSource } from "../../src/hns/load.js";
import { examples, repo, reviewSource, smallPackage, tempDir } from "./helpers.js";

const fsOf = (files: Record<string, string>) => MemoryFs.from(files);

async function installed(cat: Catalog, files: Record<string, string>, path: string) {
  return cat.install(fsOf(files), path);
}

describe("install, get, list", () => {
  it("installs a checked package content-addressed by identity and binds (id, version)", async () => {
    const store = new MemoryCatalogStore();
    const cat = new Catalog(store);
    const out = await installed(cat, { "/r.hns": reviewSource }, "/r.hns");
    expect(out.status).toBe("installed");
    expect(out.identity).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(store.paths()).toEqual(["FORMAT", bindingPath("acme.review", "1.0.0"), objectPath(out.identity!)].sort());
    const got = await cat.get("acme.review", "1.0.0");
    expect(got.ok).toBe(true);
    if (got.ok) {
      expect(got.package.identity).toBe(out.identity);
      expect(got.binding.identity).toBe(out.identity);
    }
    const listed = await cat.list();
    expect(listed.entries.map((e) => [e.id, e.version, e.identity])).toEqual([["acme.review", "1.0.0", out.identity]]);
  });

  it("installs a directory package under the identity the single file has", async () => {
    const cat = new Catalog(new MemoryCatalogStore());
    const dir = await cat.install(new NodeFs(), join(examples, "review-dir.hns"));
    const file = await cat.install(new NodeFs(), join(examples, "review.hns"));
    expect(dir.status).toBe("installed");
    expect(file.status).toBe("unchanged");
    expect(file.identity).toBe(dir.identity);
  });

  it("re-installing the same identity is an idempotent success that writes nothing new", async () => {
    const store = new MemoryCatalogStore();
    const cat = new Catalog(store);
    const files = { "/a.hns": smallPackage("a", "1") };
    expect((await installed(cat, files, "/a.hns")).status).toBe("installed");
    const before = store.paths().map((p) => [p, Buffer.from(readSync(store, p)).toString("hex")]);
    const again = await installed(
      cat,
      { "/b.hns": `; same package, other formatting\n${smallPackage("a", "1")}\n\n` },
      "/b.hns",
    );
    expect(again.status).toBe("unchanged");
    expect(store.paths().map((p) => [p, Buffer.from(readSync(store, p)).toString("hex")])).toEqual(before);
  });

  it("rejects different content under an installed (id, version), naming both identities, overwriting nothing", async () => {
    const store = new MemoryCatalogStore();
    const cat = new Catalog(store);
    const first = await installed(cat, { "/a.hns": smallPackage("a", "1", "1") }, "/a.hns");
    const bindingBefore = readSync(store, bindingPath("a", "1"));
    const second = await installed(cat, { "/a.hns": smallPackage("a", "1", "2") }, "/a.hns");
    expect(second.status).toBe("conflict");
    expect(second.diagnostics.map((d) => d.code)).toEqual(["catalog.conflict"]);
    const message = second.diagnostics[0]!.message;
    expect(message).toContain("'a@1'");
    expect(message).toContain(first.identity!);
    expect(message).toContain(second.identity!);
    expect(second.identity).not.toBe(first.identity);
    expect(readSync(store, bindingPath("a", "1"))).toEqual(bindingBefore);
    const got = await cat.get("a", "1");
    expect(got.ok && got.package.identity).toBe(first.identity);
    // Nothing of the loser was stored at all: the binding is checked before the object is written.
    expect(store.paths().some((p) => p.includes(second.identity!.slice(7)))).toBe(false);
  });

  it("never stores an invalid package", async () => {
    const store = new MemoryCatalogStore();
    const cat = new Catalog(store);
    const out = await installed(
      cat,
      { "/bad.hns": `(manifest (id "x") (version "1") (title "X"))\n(eval 1)` },
      "/bad.hns",
    );
    expect(out.status).toBe("rejected");
    expect(out.ioError).toBe(false);
    expect(out.diagnostics.map((d) => d.code)).toEqual(["hns.missing_artifact", "catalog.rejected"]);
    expect(store.paths()).toEqual([]);
  });

  it("never stores a package the analyzer rejects", async () => {
    const store = new MemoryCatalogStore();
    const cat = new Catalog(store);
    // Loads (the structure is sound), but adding a string to a number is a type error.
    const files = { "/a.hns": smallPackage("a", "1", '(add 1 "two")') };
    const out = await installed(cat, files, "/a.hns");
    expect(out.status).toBe("rejected");
    expect(out.diagnostics.map((d) => d.code)).toEqual(["yao.type_mismatch", "catalog.rejected"]);
    expect(store.paths()).toEqual([]);
    // Without the analysis, the same package is structurally fine and is stored.
    const structural = await installed(new Catalog(store, { analyze: false }), files, "/a.hns");
    expect(structural.status).toBe("installed");
  });

  it("reports a missing path as an I/O error", async () => {
    const cat = new Catalog(new MemoryCatalogStore());
    const out = await installed(cat, {}, "/missing.hns");
    expect(out.status).toBe("error");
    expect(out.ioError).toBe(true);
  });

  it("refuses ids or versions with control characters (catalog.bad_name)", async () => {
    const store = new MemoryCatalogStore();
    const cat = new Catalog(store);
    const out = await installed(
      cat,
      { "/a.hns": smallPackage("a", "1").replace('(id "a")', '(id "a\u001b[31m")') },
      "/a.hns",
    );
    expect(out.status).toBe("rejected");
    expect(out.diagnostics.map((d) => d.code)).toContain("catalog.bad_name");
    expect(store.paths()).toEqual([]);
  });

  it("never builds file names from ids: hostile ids land under hashed names", async () => {
    const store = new MemoryCatalogStore();
    const cat = new Catalog(store);
    for (const id of ["../../etc/passwd", "A", "a", "x/y", "CON", ".hns"]) {
      expect((await installed(cat, { "/p.hns": smallPackage(id, "1") }, "/p.hns")).status).toBe("installed");
    }
    for (const p of store.paths())
      expect(p).toMatch(/^(FORMAT|objects\/[0-9a-f]{64}\.hns|bindings\/[0-9a-f]{64}\.json)$/);
    expect((await cat.list()).entries.map((e) => e.id)).toEqual(["../../etc/passwd", ".hns", "A", "CON", "a", "x/y"]);
  });

  it("installSource installs text held in memory", async () => {
    const cat = new Catalog(new MemoryCatalogStore());
    const out = await cat.installSource("demo.hns", smallPackage("demo", "0.1.0"));
    expect(out.status).toBe("installed");
  });
});

describe("show references", () => {
  it("resolves ID@VERSION at every '@' and reports unknown and malformed references", async () => {
    const cat = new Catalog(new MemoryCatalogStore());
    await cat.installSource("a.hns", smallPackage("@scope/pkg", "1.0.0@beta"));
    const r = await cat.resolve("@scope/pkg@1.0.0@beta");
    expect(r.ok && [r.binding.id, r.binding.version]).toEqual(["@scope/pkg", "1.0.0@beta"]);
    const missing = await cat.resolve("@scope/pkg@2");
    expect(!missing.ok && missing.diagnostics[0]!.code).toBe("catalog.not_found");
    expect(!missing.ok && missing.ioError).toBe(false);
    const bad = await cat.resolve("nover");
    expect(!bad.ok && bad.diagnostics[0]!.code).toBe("catalog.bad_reference");
    expect(!bad.ok && bad.ioError).toBe(true);
  });

  it("hints at the installed versions of an id", async () => {
    const cat = new Catalog(new MemoryCatalogStore());
    await cat.installSource("a.hns", smallPackage("a", "1"));
    await cat.installSource("a.hns", smallPackage("a", "2"));
    const r = await cat.get("a", "3");
    expect(!r.ok && r.diagnostics[0]!.hint).toBe("installed versions of a: 1, 2");
  });
});

describe("export", () => {
  it("round-trips: the exported single file hashes to the installed identity (file and directory packages)", async () => {
    const dir = tempDir();
    const cat = openCatalog(join(dir, "cat"));
    const fs = new NodeFs();
    for (const src of ["review.hns", "review-dir.hns"]) {
      const out = await cat.install(fs, join(examples, src));
      const got = await cat.get("acme.review", "1.0.0");
      expect(got.ok).toBe(true);
      if (!got.ok) continue;
      const file = join(dir, `export-${src.replace(".hns", "")}.hns`);
      writeFileSync(file, `${got.source}\n`);
      const checked = await check(fs, file);
      expect(checked.valid).toBe(true);
      expect(checked.identity).toBe(out.identity);
    }
  });

  it("round-trips packages with mind, functions, escapes and unusual atoms", async () => {
    const text = [
      `(manifest (id "acme.notes") (version "1.2.0") (title Notes) (homepage "x") (capabilities (tools read read search) (skills writing) (extras ignored)))`,
      `(contract (rules """line one\nline two""") (tone "calm; short") (odd "a\\\\b \\"q\\" \\t tab") ("(weird head)" 1))`,
      `(mind (frame (id notes/core)) (empty ""))`,
      `(fn summarize (visibility exported) (description "Summarize one text") (params (text String)) (returns String) (effects) (body text))`,
      `(fn a-helper (params) (returns Int) (body 1))`,
      `(infer (requires (tools read)) (returns String) "Summarize the README")`,
    ].join("\n");
    const loaded = loadFromSource("notes.hns", text);
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    const cat = new Catalog(new MemoryCatalogStore());
    const out = await cat.installSource("notes.hns", text);
    expect(out.status).toBe("installed");
    const got = await cat.get("acme.notes", "1.2.0");
    expect(got.ok).toBe(true);
    if (!got.ok) return;
    const again = loadFromSource("exported.hns", got.source);
    expect(again.ok && again.package.identity).toBe(loaded.package.identity);
    expect((await cat.verify()).ok).toBe(true);
  });

  it("reproduces worked example B's identity through the catalog", async () => {
    const text = `(manifest (id "acme.notes") (version "1.2.0") (title Notes) (homepage "https://example.invalid") (capabilities (tools read read search) (skills writing) (extras ignored)))
(contract (rules """line one
line two""") (tone "calm; short"))
(mind (frame (id notes/core)))
(fn summarize (visibility exported) (description "Summarize one text") (params (text String)) (returns String) (effects) (body text))
(fn a-helper (params) (returns Int) (body 1))
(infer (requires (tools read)) (returns String) "Summarize the README")`;
    const cat = new Catalog(new MemoryCatalogStore());
    const out = await cat.installSource("b.hns", text);
    expect(out.identity).toBe("sha256:7b0d9d67bf911156d88d2deea94c385fb66ff82720d9de86d05d97ad3c4f1350");
    const got = await cat.get("acme.notes", "1.2.0");
    expect(got.ok && got.source.split("\n").slice(0, 3)).toEqual([
      `(manifest (id "acme.notes") (version "1.2.0") (title "Notes") (entry "main") (capabilities (tools "read" "search") (skills "writing")))`,
      `(contract (rules "line one\\nline two") (tone "calm; short"))`,
      `(mind (frame (id "notes/core")))`,
    ]);
  });
});

describe("verify", () => {
  it("detects every single-byte change of a stored object (catalog.corrupt)", async () => {
    const store = new MemoryCatalogStore();
    const cat = new Catalog(store);
    const out = await cat.installSource("r.hns", reviewSource);
    const path = objectPath(out.identity!);
    const original = readSync(store, path);
    expect((await cat.verify()).ok).toBe(true);
    for (let i = 0; i < original.length; i++) {
      for (const mask of [0x01, 0x20, 0x80]) {
        const bytes = original.slice();
        bytes[i] = bytes[i]! ^ mask;
        store.putRaw(path, bytes);
        const report = await cat.verify();
        expect(report.ok, `byte ${i} ^ ${mask}`).toBe(false);
        expect(report.entries[0]!.status).toBe("corrupt");
        expect(report.diagnostics.map((d) => d.code)).toEqual(["catalog.corrupt"]);
      }
    }
    // Changing a separator newline into a space keeps the identity but not the bytes: still caught.
    const text = new TextDecoder().decode(original);
    store.putRaw(path, text.replace("\n", " "));
    expect((await cat.verify()).entries[0]!.status).toBe("corrupt");
    store.putRaw(path, original);
    expect((await cat.verify()).ok).toBe(true);
  });

  it("reports a missing object as catalog.dangling, and re-installing heals it", async () => {
    const store = new MemoryCatalogStore();
    const cat = new Catalog(store);
    const out = await cat.installSource("a.hns", smallPackage("a", "1"));
    await store.remove(objectPath(out.identity!));
    const report = await cat.verify();
    expect(report.ok).toBe(false);
    expect(report.entries.map((e) => e.status)).toEqual(["dangling"]);
    expect(report.diagnostics[0]!.code).toBe("catalog.dangling");
    expect((await cat.get("a", "1")).ok).toBe(false);
    expect((await cat.installSource("a.hns", smallPackage("a", "1"))).status).toBe("unchanged");
    expect((await cat.verify()).ok).toBe(true);
  });

  it("repairs a corrupt object when the same identity is installed again", async () => {
    const store = new MemoryCatalogStore();
    const cat = new Catalog(store);
    const out = await cat.installSource("a.hns", smallPackage("a", "1"));
    store.putRaw(objectPath(out.identity!), "(garbage");
    expect((await cat.verify()).ok).toBe(false);
    expect((await cat.installSource("a.hns", smallPackage("a", "1"))).status).toBe("unchanged");
    expect((await cat.verify()).ok).toBe(true);
  });

  it("reports corrupt and misfiled bindings, and gc then refuses to delete anything", async () => {
    const store = new MemoryCatalogStore();
    const cat = new Catalog(store);
    const a = await cat.installSource("a.hns", smallPackage("a", "1"));
    await cat.installSource("b.hns", smallPackage("b", "1"));
    // b's binding is replaced by a copy of a's: filed under the wrong key.
    store.putRaw(bindingPath("b", "1"), readSync(store, bindingPath("a", "1")));
    store.putRaw(bindingPath("c", "1"), "{");
    const report = await cat.verify();
    expect(report.ok).toBe(false);
    expect(report.diagnostics.filter((d) => d.code === "catalog.corrupt")).toHaveLength(2);
    const gc = await cat.gc({ graceMs: 0 });
    expect(gc.ok).toBe(false);
    expect(gc.removedObjects).toBe(0);
    expect(store.paths()).toContain(objectPath(a.identity!));
  });

  it("a binding pointing at an object of another (id, version) is corrupt", async () => {
    const store = new MemoryCatalogStore();
    const cat = new Catalog(store);
    const a = await cat.installSource("a.hns", smallPackage("a", "1"));
    const b = await cat.installSource("b.hns", smallPackage("b", "1"));
    const forged = new TextDecoder().decode(readSync(store, bindingPath("b", "1"))).replace(b.identity!, a.identity!);
    store.putRaw(bindingPath("b", "1"), forged);
    const report = await cat.verify();
    expect(report.entries.find((e) => e.id === "b")!.status).toBe("corrupt");
  });

  it("ignores temp files, warns about stray files, and notes unreferenced objects", async () => {
    const store = new MemoryCatalogStore();
    const cat = new Catalog(store);
    await cat.installSource("a.hns", smallPackage("a", "1"));
    store.putRaw("tmp/abc.tmp", "(manifest (id");
    store.putRaw("objects/README", "hi");
    store.putRaw(`objects/${"0".repeat(64)}.hns`, "partial");
    const report = await cat.verify();
    expect(report.ok).toBe(true);
    expect(report.diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ["catalog.stray_file", "warning"],
      ["catalog.unreferenced", "info"],
    ]);
    expect(report.diagnostics[1]!.message).toContain("does not load");
  });
});

describe("gc", () => {
  it("removes unreferenced objects and old temp files, keeps bound objects and young temp files", async () => {
    let now = 1_000_000_000_000;
    const store = new MemoryCatalogStore();
    const cat = new Catalog(store, { now: () => now });
    const a = await cat.installSource("a.hns", smallPackage("a", "1"));
    const orphan = `objects/${"1".repeat(64)}.hns`;
    store.putRaw(orphan, "left by a killed installer");
    store.putRaw("tmp/old.tmp", "x", now - 2 * 3600_000);
    store.putRaw("tmp/young.tmp", "x", now - 1000);
    const report = await cat.gc();
    expect(report).toMatchObject({ ok: true, removedObjects: 1, removedTemp: 1 });
    expect(store.paths()).toEqual(["FORMAT", bindingPath("a", "1"), objectPath(a.identity!), "tmp/young.tmp"].sort());
    now += 3600_000;
    expect((await cat.gc()).removedTemp).toBe(1);
    expect((await cat.verify()).ok).toBe(true);
  });

  it("restores a referenced object that a killed gc left in trash; readers find it meanwhile", async () => {
    const store = new MemoryCatalogStore();
    const cat = new Catalog(store);
    const a = await cat.installSource("a.hns", smallPackage("a", "1"));
    const hex = a.identity!.slice(7);
    await store.rename(objectPath(a.identity!), `trash/${hex}.killedgc`);
    expect((await cat.verify()).ok).toBe(true);
    expect((await cat.get("a", "1")).ok).toBe(true);
    const report = await cat.gc({ graceMs: 0 });
    expect(report.restoredObjects).toBe(1);
    expect(store.paths()).toContain(objectPath(a.identity!));
    expect(store.paths().filter((p) => p.startsWith("trash/"))).toEqual([]);
  });

  it("gc racing an install: an object collected between object write and binding is written again", async () => {
    const inner = new MemoryCatalogStore();
    let cat!: Catalog;
    let raced = false;
    const store: CatalogStore = Object.assign(Object.create(inner) as CatalogStore, {
      createExclusive: async (path: string, data: Uint8Array) => {
        if (path.startsWith("bindings/") && !raced) {
          raced = true;
          const gc = await cat.gc({ graceMs: 0 });
          expect(gc.removedObjects).toBe(1);
        }
        return inner.createExclusive(path, data);
      },
    });
    cat = new Catalog(store);
    const out = await cat.installSource("a.hns", smallPackage("a", "1"));
    expect(raced).toBe(true);
    expect(out.status).toBe("installed");
    expect((await cat.verify()).ok).toBe(true);
  });

  it("gc racing an install: a binding that appears after gc's first listing makes gc restore the object", async () => {
    const inner = new MemoryCatalogStore();
    const cat = new Catalog(inner);
    const a = await cat.installSource("a.hns", smallPackage("a", "1"));
    // Another installer has written a's object but not yet its binding.
    const bindingBytes = readSync(inner, bindingPath("a", "1"));
    await inner.remove(bindingPath("a", "1"));
    let renamed = false;
    const store: CatalogStore = Object.assign(Object.create(inner) as CatalogStore, {
      rename: async (from: string, to: string) => {
        const ok = await inner.rename(from, to);
        if (from === objectPath(a.identity!) && !renamed) {
          renamed = true;
          // The installer binds right after gc moved the object to trash.
          inner.putRaw(bindingPath("a", "1"), bindingBytes);
        }
        return ok;
      },
    });
    const gc = await new Catalog(store).gc({ graceMs: 0 });
    expect(renamed).toBe(true);
    expect(gc).toMatchObject({ ok: true, removedObjects: 0, restoredObjects: 1 });
    expect((await cat.verify()).ok).toBe(true);
    expect(inner.paths().filter((p) => p.startsWith("trash/"))).toEqual([]);
  });
});

describe("Node store and defaults", () => {
  it("picks YAOC_CATALOG, then an absolute XDG_DATA_HOME, then ~/.local/share", () => {
    expect(defaultCatalogDir({ YAOC_CATALOG: "/c", XDG_DATA_HOME: "/x" }, "/h")).toBe("/c");
    expect(defaultCatalogDir({ YAOC_CATALOG: "", XDG_DATA_HOME: "/x" }, "/h")).toBe("/x/yaoc/catalog");
    expect(defaultCatalogDir({ XDG_DATA_HOME: "relative" }, "/h")).toBe("/h/.local/share/yaoc/catalog");
    expect(defaultCatalogDir({}, "/h")).toBe("/h/.local/share/yaoc/catalog");
  });

  it("refuses a directory that is not a catalog, and one of another format", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "notes.txt"), "mine");
    const out = await openCatalog(dir).installSource("a.hns", smallPackage("a", "1"));
    expect(out.diagnostics.map((d) => d.code)).toEqual(["catalog.bad_format"]);
    expect(out.ioError).toBe(true);
    expect(readdirSync(dir)).toEqual(["notes.txt"]);
    const other = tempDir();
    writeFileSync(join(other, "FORMAT"), "yaoc-catalog 99\n");
    expect((await openCatalog(other).list()).diagnostics[0]!.code).toBe("catalog.bad_format");
  });

  it("reads an empty or missing catalog as empty", async () => {
    const cat = openCatalog(join(tempDir(), "does-not-exist"));
    expect(await cat.list()).toMatchObject({ entries: [], diagnostics: [], ioError: false });
    expect((await cat.verify()).ok).toBe(true);
  });

  it("writes the layout with no temp files left behind", async () => {
    const dir = join(tempDir(), "cat");
    const cat = openCatalog(dir);
    const out = await cat.installSource("a.hns", smallPackage("a", "1"));
    expect(readFileSync(join(dir, "FORMAT"), "utf8")).toBe(FORMAT_TEXT);
    expect(readdirSync(join(dir, "objects"))).toEqual([`${out.identity!.slice(7)}.hns`]);
    expect(readdirSync(join(dir, "bindings"))).toHaveLength(1);
    expect(readdirSync(join(dir, "tmp"))).toEqual([]);
    const store = new NodeCatalogStore(dir);
    expect(await store.createExclusive("bindings/x.json", new Uint8Array([1]))).toBe(true);
    expect(await store.createExclusive("bindings/x.json", new Uint8Array([2]))).toBe(false);
    expect(await store.read("bindings/x.json")).toEqual(new Uint8Array([1]));
    expect(readdirSync(join(dir, "tmp"))).toEqual([]);
  });

  it("reports storage failures as catalog.io", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "cat"));
    writeFileSync(join(dir, "cat", "objects"), "a file where a directory belongs");
    writeFileSync(join(dir, "cat", "FORMAT"), FORMAT_TEXT);
    const out = await openCatalog(join(dir, "cat")).installSource("a.hns", smallPackage("a", "1"));
    expect(out.status).toBe("error");
    expect(out.ioError).toBe(true);
    expect(out.diagnostics[0]!.code).toBe("catalog.io");
  });
});

describe("code table", () => {
  it("has a row for every catalog code the sources emit", () => {
    const rows = new Set<string>(CATALOG_CODES.map((r) => r.code));
    const sources = ["src/catalog/catalog.ts", "src/cli/catalog.ts"]
      .map((f) => readFileSync(join(repo, f), "utf8"))
      .join("\n");
    const emitted = new Set([...sources.matchAll(/"(catalog\.[a-z_]+)"/g)].map((m) => m[1]!));
    expect(emitted.size).toBeGreaterThan(5);
    for (const code of emitted) expect(rows.has(code), code).toBe(true);
    for (const r of CATALOG_CODES)
      expect(r.reason).toMatch(/^(struct_|size_|danger_|perm_|ident_|meta_|audit_|hon_)[a-z_]+$/);
  });
});

function readSync(store: MemoryCatalogStore, path: string): Uint8Array {
  const bytes = store.peek(path);
  if (bytes === undefined) throw new Error(`no ${path}`);
  return bytes.slice();
}
