/**
 * One logical package, one identity (HNS §4.3, §10.1): single-file and directory encodings, comments,
 * whitespace, CRLF, artifact order, string vs symbol metadata atoms, block vs escaped strings and
 * ignored manifest items never change it; changing any atom does. Also the storage round trip
 * `loadFromSource(name, loadableSource(pkg))` (loader ref §8.3) for every valid fixture.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadableSource } from "../../src/canonical/package-identity.js";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import { loadFromSource, loadPackage } from "../../src/hns/load.js";
import { withManifest } from "../../src/hns/normalize.js";
import { readAll } from "../../src/syntax/reader.js";
import type { SNode } from "../../src/syntax/tree.js";
import { discoverHnsFixtures, loadFixture } from "../../scripts/update-hns-golden.js";
import { FIXTURES, identityInput, loaded, REPO } from "./helpers.js";

const success = discoverHnsFixtures(REPO).filter((f) => f.expect.valid);
const byName = new Map(success.map((f) => [f.rel.replace(/^success\//, ""), f]));

async function identityOf(name: string): Promise<string> {
  const f = byName.get(name);
  if (f === undefined) throw new Error(`no fixture success/${name}`);
  return loaded(await loadFixture(f)).identity;
}

/** Encodings of the reference package success/coding.hns. */
const SAME_AS_CODING = [
  "coding-dir.hns",
  "coding-comments.hns",
  "coding-crlf.hns",
  "coding-reordered.hns",
  "coding-whitespace.hns",
  "coding-string-atoms.hns",
  "coding-block-strings.hns",
  "coding-dedup-tools.hns",
  "coding-dir-crlf.hns",
  "coding-dir-comments.hns",
  "coding-dir-layout.hns",
  "warn-unknown-field.hns",
  "warn-unknown-capability.hns",
  "warn-dir-unknown-field.hns",
  "warn-dir-unknown-capability.hns",
];

/** Each differs from coding.hns in exactly one atom (or one artifact) and from every other one. */
const ONE_CHANGE = [
  "change-contract-atom.hns",
  "change-contract-string-escape.hns",
  "change-entry-string-to-symbol.hns",
  "change-entry-string.hns",
  "change-fn-body.hns",
  "change-fn-visibility.hns",
  "change-id.hns",
  "change-mind-atom.hns",
  "change-no-mind.hns",
  "change-skill.hns",
  "change-title.hns",
  "change-tool-order.hns",
  "change-version.hns",
  "coding-entry-ab.hns",
  "warn-empty-title.hns",
];

describe("identity equivalence across encodings", () => {
  it("the CRLF fixtures really hold CRLF line endings (guards against checkout normalisation)", () => {
    const crlf = readFileSync(join(FIXTURES, "success/coding-crlf.hns"), "latin1");
    expect(crlf.split("\r\n").length).toBeGreaterThan(20);
    expect(crlf.replace(/\r\n/g, "")).not.toContain("\n");
    expect(readFileSync(join(FIXTURES, "success/coding-dir-crlf.hns/manifest.yao"), "latin1")).toContain(")\r\n");
    expect(readFileSync(join(FIXTURES, "success/coding.hns"), "latin1")).not.toContain("\r");
  });

  it.each(SAME_AS_CODING)("%s has the identity of coding.hns", async (name) => {
    expect(await identityOf(name)).toBe(await identityOf("coding.hns"));
  });

  it("the directory entry id is the file stem: programs/a.b.yao ≡ (entry a.b)", async () => {
    const dir = loaded(await loadFixture(byName.get("coding-dir-entry-ab.hns")!));
    const single = loaded(await loadFixture(byName.get("coding-entry-ab.hns")!));
    expect(dir.entry.id).toBe("a.b");
    expect(single.entry.id).toBe("a.b");
    expect(dir.identity).toBe(single.identity);
    expect(dir.identity).not.toBe(await identityOf("coding.hns"));
  });

  it("minimal single file ≡ minimal directory", async () => {
    expect(await identityOf("minimal-dir.hns")).toBe(await identityOf("minimal.hns"));
  });

  it("one changed atom gives a new identity, distinct from every other change", async () => {
    const base = await identityOf("coding.hns");
    const seen = new Map<string, string>();
    for (const name of ONE_CHANGE) {
      const id = await identityOf(name);
      expect(id, name).not.toBe(base);
      expect(seen.get(id), `${name} collides`).toBeUndefined();
      seen.set(id, name);
    }
  });

  it("the physical form is not part of the identity but is recorded", async () => {
    const single = loaded(await loadFixture(byName.get("coding.hns")!));
    const dir = loaded(await loadFixture(byName.get("coding-dir.hns")!));
    expect(single.form).toBe("file");
    expect(dir.form).toBe("directory");
    expect(dir.canonicalText).toBe(single.canonicalText);
    expect(dir.functions.map((f) => f.name)).toEqual(["load-file", "normalize"]);
  });

  it("a directory built in memory from the single file's artifacts has the same identity", async () => {
    const text = readFileSync(join(FIXTURES, "success/coding.hns"), "utf8");
    const r = readAll(text);
    if (!r.ok) throw new Error("coding.hns must parse");
    const slice = (n: SNode): string => text.slice(n.span.start.byte, n.span.end.byte);
    const head = (n: SNode): string => (n.kind === "list" && n.items[0]?.kind === "symbol" ? n.items[0].name : "");
    const files: Record<string, string> = {};
    for (const form of r.forms) {
      const h = head(form);
      if (h === "manifest") files["/m/pkg.hns/manifest.yao"] = `${slice(form).slice(0, -1)} (entry "bin/main.yao"))`;
      else if (h === "contract" || h === "mind") files[`/m/pkg.hns/${h}.yao`] = slice(form);
      else if (h === "fn") files[`/m/pkg.hns/functions/${Object.keys(files).length}.yao`] = slice(form);
      else files["/m/pkg.hns/bin/main.yao"] = slice(form);
    }
    const mem = loaded(await loadPackage(MemoryFs.from(files), "/m/pkg.hns"));
    expect(mem.identity).toBe(await identityOf("coding.hns"));
  });
});

describe("function order (HNS §10.1 item 4, loader ref H16)", () => {
  const fns = [
    "(fn 😀 (params) (returns Int) (body 1))",
    "(fn ｚ (params) (returns Int) (body 2))",
    "(fn a (params) (returns Int) (body 3))",
  ];
  const head = '(manifest (id x) (version "1") (title "T"))\n(contract)\n';
  const entry = "(eval (requires (tools)) 1)";

  it("functions are sorted by code point (U+FF5A before U+1F600, unlike UTF-16 order), in both forms", async () => {
    const single = loaded(loadFromSource("x.hns", `${head}${fns.join("\n")}\n${entry}\n`));
    expect(single.functions.map((f) => f.name)).toEqual(["a", "ｚ", "😀"]);
    // File names deliberately in the opposite order of the function names.
    const dir = loaded(
      await loadPackage(
        MemoryFs.from({
          "/x.hns/manifest.yao": '(manifest (id x) (version "1") (title "T") (entry "main.yao"))',
          "/x.hns/contract.yao": "(contract)",
          "/x.hns/main.yao": entry,
          "/x.hns/functions/1.yao": fns[2]!,
          "/x.hns/functions/2.yao": fns[1]!,
          "/x.hns/functions/3.yao": fns[0]!,
        }),
        "/x.hns",
      ),
    );
    expect(dir.functions.map((f) => f.name)).toEqual(["a", "ｚ", "😀"]);
    expect(dir.identity).toBe(single.identity);
    const reversed = loaded(loadFromSource("x.hns", `${head}${[...fns].reverse().join("\n")}\n${entry}\n`));
    expect(reversed.identity).toBe(single.identity);
  });
});

describe("changing any atom changes the identity", () => {
  const text = readFileSync(join(FIXTURES, "success/coding.hns"), "utf8");
  const base = loaded(loadFromSource("coding.hns", text)).identity;

  function atoms(n: SNode, out: SNode[] = []): SNode[] {
    if (n.kind === "list") for (const c of n.items) atoms(c, out);
    else out.push(n);
    return out;
  }

  it("every atom of coding.hns, mutated, either invalidates the package or changes its identity", () => {
    expect(/^[\x00-\x7f]*$/.test(text), "byte offsets are used as string indices").toBe(true);
    const r = readAll(text);
    if (!r.ok) throw new Error("coding.hns must parse");
    const all = r.forms.flatMap((f) => atoms(f));
    expect(all.length).toBeGreaterThan(50);
    let stillValid = 0;
    for (const atom of all) {
      // Insert one character before the end of the atom (inside the quotes for strings).
      const at = atom.kind === "string" ? atom.span.end.byte - (atom.block ? 3 : 1) : atom.span.end.byte;
      const mutated = `${text.slice(0, at)}q${text.slice(at)}`;
      const m = loadFromSource("coding.hns", mutated);
      if (!m.ok) continue;
      stillValid++;
      expect(
        m.package.identity,
        `mutating ${text.slice(atom.span.start.byte, atom.span.end.byte)} at ${atom.span.start.line}:${atom.span.start.column}`,
      ).not.toBe(base);
    }
    expect(stillValid).toBeGreaterThan(40);
  });
});

describe("loadableSource round trip (catalog reload, loader ref §8.3)", () => {
  it.each(success.map((f) => f.rel))("%s reloads from its loadable source with the same identity", async (rel) => {
    const pkg = loaded(await loadFixture(success.find((f) => f.rel === rel)!));
    const source = loadableSource(identityInput(pkg));
    const again = loadFromSource(`${pkg.manifest.id}.hns`, source);
    const re = loaded(again);
    expect(re.identity).toBe(pkg.identity);
    expect(re.canonicalText).toBe(pkg.canonicalText);
    expect(re.entry.id).toBe(pkg.entry.id);
    expect(re.entry.owner).toBe(pkg.entry.owner);
    expect(re.entry.declaredTools).toEqual(pkg.entry.declaredTools);
    expect(re.entry.typeSource).toBe(pkg.entry.typeSource);
    // The reloaded manifest carries the logical entry id as its (entry …).
    expect(re.manifest).toEqual({ ...pkg.manifest, entry: pkg.entry.id });
    expect(re.contract).toEqual(pkg.contract);
    expect(re.mind).toEqual(pkg.mind);
    expect(re.functions.map((f) => [f.name, f.visibility, f.source, f.interfaceSource])).toEqual(
      pkg.functions.map((f) => [f.name, f.visibility, f.source, f.interfaceSource]),
    );
    // Ignored manifest items are dropped by normalization, so only the empty-title warning can remain.
    if (again.ok) for (const w of again.warnings) expect(w.code).toBe("hns.empty_title");
    // And the loadable text is a fixed point.
    expect(loadableSource(identityInput(re))).toBe(source);
  });
});

describe("a loaded package and its functions are objects of one shape (issue 29, figure n)", () => {
  it("every package and function shares its class's getters instead of carrying its own", async () => {
    const one = loaded(await loadFixture(success.find((f) => f.rel === "success/coding.hns")!));
    const two = loaded(await loadFixture(success.find((f) => f.rel === "success/coding-dir.hns")!));
    expect(one.functions.length).toBeGreaterThan(0);
    // An own getter per object (an object literal's `get`) gave each object a map of its own that
    // kept its whole tree alive through scavenges; the texts come from the prototype's getter.
    for (const x of [one, two, ...one.functions, ...two.functions]) {
      expect(Object.getOwnPropertyDescriptor(x, "canonicalText")).toBeUndefined();
      expect(Object.getOwnPropertyDescriptor(x, "interfaceSource")).toBeUndefined();
    }
    expect(Object.getPrototypeOf(one)).toBe(Object.getPrototypeOf(two));
    expect(Object.getPrototypeOf(one.functions[0])).toBe(Object.getPrototypeOf(two.functions[0]));
    expect(one.canonicalText).toBe(two.canonicalText);
    expect(one.functions[0]!.interfaceSource).not.toContain("(body");
  });

  it("withManifest keeps the canonical text, which a spread of the package would drop", async () => {
    const pkg = loaded(await loadFixture(success.find((f) => f.rel === "success/coding.hns")!));
    const tools = [...pkg.manifest.tools, "extra-tool"];
    const other = withManifest(pkg, { ...pkg.manifest, tools });
    expect(other.manifest.tools).toEqual(tools);
    expect(pkg.manifest.tools).not.toContain("extra-tool");
    expect(other.canonicalText).toBe(pkg.canonicalText);
    expect(other.identity).toBe(pkg.identity);
    expect(other.functions).toBe(pkg.functions);
    expect(({ ...pkg } as { canonicalText?: string }).canonicalText).toBeUndefined();
  });
});
