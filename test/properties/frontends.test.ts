/**
 * Every frontend, fed arbitrary bytes or well-formed-but-wrong documents, answers with diagnostics:
 * never an exception, never a hang (fast-check runs are bounded; vitest's timeout bounds time).
 * Plus program_hash: invariant under dict entry order, sensitive to `par` branch order.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkA3s } from "../../src/a3s/index.js";
import { checkManifestText } from "../../src/a3s/manifest/check.js";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import { checkHarp } from "../../src/harp/index.js";
import { checkHcp } from "../../src/hcp/index.js";
import { check } from "../../src/check/check.js";
import { readOne } from "../../src/syntax/reader.js";
import { analyzeProgram, programHash } from "../../src/yao/index.js";

type Tree = string | Tree[];
const HEADS = [
  "eval",
  "seq",
  "bind",
  "fn",
  "params",
  "returns",
  "body",
  "requires",
  "tools",
  "call",
  "if",
  "let",
  "dict",
  "par",
  "branch",
  "record",
  "types",
  "manifest",
  "contract",
  "mind",
  "id",
  "version",
  "capabilities",
  "entry",
  "Int",
  "String",
  "List",
];
const atom = fc.oneof(
  fc.constantFrom(...HEADS),
  fc.integer({ min: -5, max: 100 }).map(String),
  fc.string({ maxLength: 5 }).map((s) => JSON.stringify(s)),
  fc.constantFrom("x", "x.y", "-", "1.5", "true"),
);
const { tree } = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof({ depthSize: "small" }, atom, fc.array(tie("tree"), { maxLength: 5 })),
}));
const print = (t: Tree): string => (Array.isArray(t) ? `(${t.map(print).join(" ")})` : t);
/** A tree headed by a known artifact keyword: structurally plausible, semantically arbitrary. */
const artifact = fc
  .tuple(fc.constantFrom("eval", "manifest", "contract", "mind", "fn"), fc.array(tree, { maxLength: 5 }))
  .map(([h, xs]) => print([h, ...xs]));

const json: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 4 });
const bytes = fc.uint8Array({ maxLength: 200 });

/** A result is a diagnostics report, never an exception. */
function wellFormed(r: { diagnostics: readonly { code: string; severity: string }[]; valid: boolean }): void {
  expect(Array.isArray(r.diagnostics)).toBe(true);
  for (const d of r.diagnostics) expect(typeof d.code).toBe("string");
  if (!r.valid) expect(r.diagnostics.some((d) => d.severity === "error")).toBe(true);
}

const HCP_SURFACE = { id: "acme.tickets", wrap: { bin: "./bin/tool" }, verbs: { "a.list": { argv: ["a.list"] } } };
const HCP_POLICY = { surface_id: "acme.tickets", verbs: { "a.list": { effect: "allow" } } };

describe("frontends answer arbitrary input with diagnostics", () => {
  it("HNS single-file packages: arbitrary bytes and arbitrary artifact trees", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          bytes,
          fc.array(artifact, { maxLength: 5 }).map((a) => new TextEncoder().encode(a.join("\n"))),
        ),
        async (data) => {
          wellFormed(await check(MemoryFs.from({ "/p.hns": data }), "/p.hns"));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("HNS directory packages with arbitrary manifest and entry", async () => {
    await fc.assert(
      fc.asyncProperty(artifact, artifact, async (manifest, entry) => {
        const fs = MemoryFs.from({
          "/p.hns/manifest.yao": manifest,
          "/p.hns/main.yao": entry,
          "/p.hns/contract.yao": '(contract (purpose "x"))',
        });
        wellFormed(await check(fs, "/p.hns"));
      }),
      { numRuns: 100 },
    );
  });

  it("Yao analyzer: arbitrary well-formed trees are diagnosed, valid ones hash", () => {
    fc.assert(
      fc.property(fc.array(tree, { maxLength: 4 }), (items) => {
        const r = readOne(print(["eval", ...items]));
        if (!r.ok) throw new Error(r.diagnostic.message);
        const a = analyzeProgram(r.form);
        if (a.program) expect(programHash(a.program)).toMatch(/^sha256:[0-9a-f]{64}$/);
        else expect(a.diagnostics.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });

  it("HARP: arbitrary harp.json bytes and arbitrary JSON documents", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          bytes,
          json.map((j) => new TextEncoder().encode(JSON.stringify(j))),
        ),
        async (data) => {
          wellFormed(await checkHarp(MemoryFs.from({ "/p/harp.json": data, "/p/bin/app": "#!/bin/sh\n" }), "/p"));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("HCP: arbitrary surface.json / policy.json, bytes or JSON", async () => {
    const doc = fc.oneof(
      bytes,
      json.map((j) => JSON.stringify(j)),
      json.map((j) => JSON.stringify({ ...HCP_SURFACE, verbs: j })),
    );
    await fc.assert(
      fc.asyncProperty(doc, fc.oneof(doc, fc.constant(JSON.stringify(HCP_POLICY))), async (surface, policy) => {
        const fs = MemoryFs.from({
          "/p/surface.json": surface,
          "/p/policy.json": policy,
          "/p/HARNESS.md": "# x\n",
          "/p/bin/tool": "#!/bin/sh\n",
        });
        wellFormed(await checkHcp(fs, "/p"));
      }),
      { numRuns: 150 },
    );
  });

  it("A3S: arbitrary manifest text through the ACL parser and the package check", async () => {
    const aclish = fc
      .array(
        fc.constantFrom(
          "extension",
          '"acme/x"',
          "{",
          "}",
          "[",
          "]",
          "=",
          ",",
          "schema_version",
          "3",
          "version",
          '"1.0.0"',
          "route",
          "\n",
          " ",
          "#c\n",
          "//",
          "/*",
          "*/",
          "<<EOF\nx\nEOF\n",
          "1e9",
          "-",
        ),
        { maxLength: 40 },
      )
      .map((a) => a.join(" "));
    await fc.assert(
      fc.asyncProperty(fc.oneof(aclish, fc.string({ unit: "binary", maxLength: 80 })), async (text) => {
        const m = checkManifestText(text, "a3s-use-extension.acl");
        // No model without an error saying why.
        if (m.manifest === null) expect(m.diagnostics.some((d) => d.severity === "error")).toBe(true);
        wellFormed(await checkA3s(MemoryFs.from({ "/p/a3s-use-extension.acl": text, "/p/README.md": "# x\n" }), "/p"));
      }),
      { numRuns: 150 },
    );
  });
});

describe("program_hash", () => {
  const hash = (source: string): string => {
    const r = readOne(source);
    if (!r.ok) throw new Error(r.diagnostic.message);
    const a = analyzeProgram(r.form);
    if (!a.program) throw new Error(a.diagnostics[0]!.message);
    return programHash(a.program);
  };
  const keys = fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9]{0,5}$/), { minLength: 2, maxLength: 6 });

  it("is invariant under dict entry order", () => {
    fc.assert(
      fc.property(
        keys.chain((ks) =>
          fc.tuple(fc.constant(ks), fc.shuffledSubarray(ks, { minLength: ks.length, maxLength: ks.length })),
        ),
        ([ks, shuffled]) => {
          const dict = (order: string[]) => `(eval (dict ${order.map((k) => `(${k} ${ks.indexOf(k)})`).join(" ")}))`;
          expect(hash(dict(shuffled))).toBe(hash(dict(ks)));
        },
      ),
      { numRuns: 100 },
    );
  });

  it("is sensitive to par branch order", () => {
    fc.assert(
      fc.property(keys, (ks) => {
        const par = (order: string[]) => `(eval (par ${order.map((k, i) => `(branch ${k} ${i})`).join(" ")}))`;
        expect(hash(par([...ks].reverse()))).not.toBe(hash(par(ks)));
      }),
      { numRuns: 100 },
    );
  });
});
