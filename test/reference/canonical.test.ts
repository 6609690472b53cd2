/** Canonical text, content hash and package identity against the Morphz reference (same rules: test/canonical/identity.test.ts). */
import { expect, it } from "vitest";
import { contentHash } from "../../src/canonical/hash.js";
import { loadableSource } from "../../src/canonical/package-identity.js";
import { canonicalSource } from "../../src/canonical/typed.js";
import { loadFromSource } from "../../src/hns/load.js";
import { readOne } from "../../src/syntax/reader.js";
import { describeReference, referenceJson, referenceText } from "./reference.js";

interface MorphzCase {
  readonly path: string;
  readonly content_hash?: string;
}
const morphzText = (rel: string): string => referenceText("reference", "morphz-fixtures", rel);
const morphzIndex = (): MorphzCase[] => referenceJson<MorphzCase[]>("reference", "morphz-fixtures", "INDEX.json");
const sharedText = (rel: string): string => referenceText(rel);

function canonical(text: string): string {
  const r = readOne(text);
  if (!r.ok) throw new Error(r.diagnostic.message);
  return canonicalSource(r.form);
}

describeReference("typed canonical text and content hash (Morphz cases)", () => {
  const cases = morphzIndex().filter((c) => c.content_hash !== undefined);

  it("has the reference's content-hash cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(5);
  });

  it.each(cases.map((c) => [c.path, c.content_hash!]))("%s hashes to the reference value", (path, hash) => {
    expect(contentHash(canonical(morphzText(path)))).toBe(hash);
  });

  it("drops comments and whitespace, keeps the string/symbol distinction", () => {
    expect(canonical(morphzText("inline/yao/src/canonical.rs@70e0787/identity_left.yao"))).toBe(
      '(eval (seq "a" symbol))',
    );
    expect(canonical('"true"')).not.toBe(canonical("true"));
  });

  it("round-trips: canonical text re-reads to itself", () => {
    const text = canonical(morphzText("inline/yao/src/canonical.rs@70e0787/roundtrip.yao"));
    expect(canonical(text)).toBe(text);
    expect(text).toBe('(eval (seq "a\\\\b\\nc" (list 1 true nil)))');
  });

  it("escapes exactly five characters and leaves other controls raw", () => {
    expect(canonical('"a\\tb\\rc\\n\\"\\\\\u0001\u2028"')).toBe('"a\\tb\\rc\\n\\"\\\\\u0001\u2028"');
  });
});

describeReference("package identity: worked examples of yao-v0.1.md §2.5", () => {
  const reference = sharedText("reference/yao-v0.1.md");
  /** The fenced source block following a given marker in the reference document. */
  const blockAfter = (marker: string): string => {
    const at = reference.indexOf(marker);
    const start = reference.indexOf("```\n", at) + 4;
    return reference.slice(start, reference.indexOf("\n```", start));
  };
  const hashAfter = (marker: string): string => {
    const at = reference.indexOf(marker);
    return /sha256:[0-9a-f]{64}/.exec(reference.slice(at))![0];
  };

  it.each([
    ["**Example A: minimal single file.**"],
    ["**Example B: comments, dropped fields, block string, mind, functions, model-owned entry.**"],
  ])("%s", (marker) => {
    const loaded = loadFromSource("example.hns", blockAfter(marker));
    if (!loaded.ok) throw new Error(loaded.diagnostics.map((d) => d.message).join("; "));
    expect(loaded.package.identity).toBe(hashAfter(marker));
  });

  it("Example B's canonical text is the documented one, and its loadable form reloads to the same identity", () => {
    const marker = "**Example B: comments, dropped fields, block string, mind, functions, model-owned entry.**";
    const loaded = loadFromSource("b.hns", blockAfter(marker));
    if (!loaded.ok) throw new Error("load failed");
    const documented = blockAfter("canonical text (6 artifacts)");
    expect(loaded.package.canonicalText).toBe(documented);
    const pkg = loaded.package;
    const stored = loadableSource({
      manifest: pkg.manifest,
      entryId: pkg.entry.id,
      contract: pkg.contract,
      mind: pkg.mind,
      functions: pkg.functions,
      entrySource: pkg.entry.source,
    });
    expect(stored.split("\n").slice(0, 3)).toEqual([
      '(manifest (id "acme.notes") (version "1.2.0") (title "Notes") (entry "main") (capabilities (tools "read" "search") (skills "writing")))',
      '(contract (rules "line one\\nline two") (tone "calm; short"))',
      '(mind (frame (id "notes/core")))',
    ]);
    const reloaded = loadFromSource("acme.notes.hns", stored);
    expect(reloaded.ok && reloaded.package.identity).toBe(pkg.identity);
  });
});
