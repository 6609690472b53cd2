import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { contentHash } from "../../src/canonical/hash.js";
import { legacyView, printLegacy } from "../../src/canonical/legacy.js";
import { loadableSource } from "../../src/canonical/package-identity.js";
import { printLoadable } from "../../src/canonical/loadable.js";
import { canonicalSource } from "../../src/canonical/typed.js";
import { loadFromSource } from "../../src/hns/load.js";
import { readOne } from "../../src/syntax/reader.js";
import { NodeFs } from "../../src/fs/node-fs.js";
import { loadPackage } from "../../src/hns/load.js";
import { analyzeProgram } from "../../src/yao/index.js";

const CANON = fileURLToPath(new URL("../../fixtures/yao/canonical/", import.meta.url));

function canonical(text: string): string {
  const r = readOne(text);
  if (!r.ok) throw new Error(r.diagnostic.message);
  return canonicalSource(r.form);
}

describe("typed canonical text and content hash (fixtures/yao/canonical)", () => {
  const text = (name: string): string => readFileSync(join(CANON, name), "utf8");

  it("identity-left.yao and identity-right.yao (comments, layout) have one canonical text and one content hash", () => {
    expect(canonical(text("identity-left.yao"))).toBe(canonical(text("identity-right.yao")));
    expect(contentHash(canonical(text("identity-left.yao")))).toBe(contentHash(canonical(text("identity-right.yao"))));
  });

  it("dict insertion order is source text (content hash differs) but not meaning (program hash equal)", () => {
    expect(contentHash(canonical(text("dict-order-left.yao")))).not.toBe(
      contentHash(canonical(text("dict-order-right.yao"))),
    );
    const programHash = (name: string) => {
      const r = readOne(text(name));
      if (!r.ok) throw new Error(r.diagnostic.message);
      return analyzeProgram(r.form).programHash;
    };
    expect(programHash("dict-order-left.yao")).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(programHash("dict-order-left.yao")).toBe(programHash("dict-order-right.yao"));
  });

  it("the content hash is sha256 over the UTF-8 canonical text (checked with node:crypto)", () => {
    for (const name of ["identity-left.yao", "dict-order-left.yao", "string-nil.yao", "roundtrip.yao"]) {
      const c = canonical(text(name));
      expect(contentHash(c)).toBe(`sha256:${createHash("sha256").update(c, "utf8").digest("hex")}`);
    }
  });

  it("drops comments and whitespace, keeps dict order and the string/symbol distinction", () => {
    expect(canonical(text("identity-left.yao"))).toBe('(eval (seq "x" word))');
    expect(canonical(text("dict-order-right.yao"))).toBe("(eval (dict (alpha 2) (zeta 1)))");
    expect(canonical(text("dict-order-left.yao"))).toBe("(eval (dict (zeta 1) (alpha 2)))");
    expect(canonical(text("string-nil.yao"))).toBe('"nil"');
    expect(canonical(text("symbol-nil.yao"))).toBe("nil");
    expect(contentHash(canonical(text("string-nil.yao")))).not.toBe(contentHash(canonical(text("symbol-nil.yao"))));
  });

  it("round-trips: canonical text re-reads to itself", () => {
    const c = canonical(text("roundtrip.yao"));
    expect(canonical(c)).toBe(c);
    expect(c).toBe('(eval (seq "p\\\\q\\nr" (list 7 false nil)))');
  });

  it("escapes exactly five characters and leaves other controls raw", () => {
    expect(canonical('"a\\tb\\rc\\n\\"\\\\\u0001\u2028"')).toBe('"a\\tb\\rc\\n\\"\\\\\u0001\u2028"');
  });
});

describe("legacy metadata printer", () => {
  const legacy = (text: string): string => {
    const r = readOne(text);
    if (!r.ok) throw new Error(r.diagnostic.message);
    return printLegacy(legacyView(r.form));
  };

  it('prints strings bare unless they need quotes, escaping only \\ and "', () => {
    expect(legacy('(version "1.0.0")')).toBe("(version 1.0.0)");
    expect(legacy('(title "Demo Harness")')).toBe('(title "Demo Harness")');
    expect(legacy('(x "a\\nb")')).toBe('(x "a\nb")');
    expect(legacy('(x "q\\"\\\\")')).toBe('(x "q\\"\\\\")');
    expect(legacy('(x "" "a;b" "a\u00a0b" "a\\\\b")')).toBe('(x "" a;b a\u00a0b a\\b)');
  });

  it("loadable encoding quotes every atom but plain list heads", () => {
    const r = readOne('(manifest (id "acme.notes") (title Notes) ("two words" x))');
    if (!r.ok) throw new Error(r.diagnostic.message);
    expect(printLoadable(legacyView(r.form))).toBe('(manifest (id "acme.notes") (title "Notes") ("two words" "x"))');
  });
});

describe("package identity: our worked examples (fixtures/yao/canonical/packages)", () => {
  /** Expected canonical texts are written by hand from HNS §10.1; the hash is checked with node:crypto. */
  const expected = (name: string): string => readFileSync(join(CANON, "packages", `${name}.canonical.txt`), "utf8");
  const sha = (t: string): string => `sha256:${createHash("sha256").update(t, "utf8").digest("hex")}`;

  it.each([
    ["minimal.hns", "minimal"],
    ["ledger.hns", "ledger"],
    ["route.hns", "route"],
    ["route-dir.hns", "route-dir"],
  ])("%s has the documented canonical text and identity", async (path, name) => {
    const r = await loadPackage(new NodeFs(), join(CANON, "packages", path));
    if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join("; "));
    expect(r.package.canonicalText).toBe(expected(name));
    expect(r.package.identity).toBe(sha(expected(name)));
  });

  it("the entry id differs between the physical forms, and so does the identity", async () => {
    const single = await loadPackage(new NodeFs(), join(CANON, "packages", "route.hns"));
    const dir = await loadPackage(new NodeFs(), join(CANON, "packages", "route-dir.hns"));
    expect(single.ok && dir.ok && single.package.identity !== dir.package.identity).toBe(true);
  });

  it("the ledger's loadable form reloads to the same identity", async () => {
    const r = await loadPackage(new NodeFs(), join(CANON, "packages", "ledger.hns"));
    if (!r.ok) throw new Error("load failed");
    const pkg = r.package;
    const stored = loadableSource({
      manifest: pkg.manifest,
      entryId: pkg.entry.id,
      contract: pkg.contract,
      mind: pkg.mind,
      functions: pkg.functions,
      entrySource: pkg.entry.source,
    });
    expect(stored.split("\n").slice(0, 3)).toEqual([
      '(manifest (id "acme.ledger") (version "3.1.0") (title "Ledger") (entry "main") (capabilities (tools "search" "read") (skills "accounting")))',
      '(contract (policy "first rule\\nsecond rule") (voice "plain; exact"))',
      '(mind (frame (id "ledger/books")))',
    ]);
    const reloaded = loadFromSource("acme.ledger.hns", stored);
    expect(reloaded.ok && reloaded.package.identity).toBe(pkg.identity);
  });
});
