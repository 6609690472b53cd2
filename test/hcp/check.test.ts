import { describe, expect, it } from "vitest";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import { DIAGNOSTIC_LIMIT } from "../../src/diagnostics/collector.js";
import { checkHcp, HCP_CODES, packDigest } from "../../src/hcp/index.js";

const VERBS = ["t.list", "t.show", "t.make", "t.edit", "t.drop"];

function files(
  surface: unknown,
  policy: unknown = { surface_id: "acme", verbs: Object.fromEntries(VERBS.map((v) => [v, {}])) },
) {
  return {
    "/p/surface.json": typeof surface === "string" ? surface : JSON.stringify(surface, null, 2),
    "/p/policy.json": typeof policy === "string" ? policy : JSON.stringify(policy, null, 2),
    "/p/HARNESS.md": "# acme\n",
  };
}
const baseSurface = { id: "acme", verbs: Object.fromEntries(VERBS.map((v) => [v, { argv: [v] }])) };

describe("checkHcp", () => {
  it("points spans at the offending text", async () => {
    const src = files({ ...baseSurface, plane: "data" });
    const r = await checkHcp(MemoryFs.from(src), "/p");
    const d = r.diagnostics.find((x) => x.code === "hcp.plane.invalid")!;
    const text = src["/p/surface.json"];
    const bytes = new TextEncoder().encode(text);
    expect(new TextDecoder().decode(bytes.slice(d.span!.start.byte, d.span!.end.byte))).toBe('"data"');
    expect(d.file).toBe("/p/surface.json");
    expect(d.pointer).toBe("/plane");
    expect(r.sources?.get(d.file!)).toBe(text);
  });

  it("still checks policy.json when surface.json is broken, without cross-file noise", async () => {
    const r = await checkHcp(MemoryFs.from(files("{", { verbs: {} })), "/p");
    expect(r.diagnostics.map((d) => d.code)).toEqual(["hcp.json.syntax", "hcp.identity.missing_surface_id"]);
    expect(r.valid).toBe(false);
    expect(r.identity).toBeNull();
    expect(r.extra?.digest).toMatch(/^sha256:/);
  });

  it("reports a duplicated verb once, as a duplicate key", async () => {
    const surface = `{"id": "acme", "verbs": {${VERBS.map((v) => `"${v}": {}`).join(", ")}, "t.list": {"passthrough": true}}}`;
    const r = await checkHcp(MemoryFs.from(files(surface)), "/p");
    expect(r.diagnostics.map((d) => d.code)).toEqual(["hcp.json.duplicate_key"]);
  });

  it("a lone surrogate is reported and the document is not checked further", async () => {
    // The same pack without the surrogate has two rule errors: a bad plane and a pass-through verb.
    const surface = (id: string) =>
      `{"id": "${id}", "plane": "data", "verbs": {${VERBS.map((v) => `"${v}": {"argv": ["${v}"]}`).join(", ")}, "t.run": {"passthrough": true}}}`;
    const policy = { surface_id: "acme", verbs: Object.fromEntries([...VERBS, "t.run"].map((v) => [v, {}])) };
    const clean = await checkHcp(MemoryFs.from(files(surface("acme"), policy)), "/p");
    expect(clean.diagnostics.map((d) => d.code).sort()).toEqual(["hcp.plane.invalid", "hcp.verb.passthrough"]);
    const r = await checkHcp(MemoryFs.from(files(surface("acme\\ud800"), policy)), "/p");
    expect(r.diagnostics.map((d) => [d.code, d.pointer])).toEqual([["hcp.json.lone_surrogate", "/id"]]);
  });

  it("a wrap.bin that does not begin with . names a program and is not checked as a path", async () => {
    for (const bin of ["tickets", "/usr/local/bin/no-such-tickets", "bin/no-such-tickets"]) {
      const r = await checkHcp(MemoryFs.from(files({ ...baseSurface, wrap: { bin } })), "/p");
      expect(r.diagnostics, bin).toEqual([]);
    }
    // The same missing file as a pack path is reported.
    const dot = await checkHcp(MemoryFs.from(files({ ...baseSurface, wrap: { bin: "./no-such-tickets" } })), "/p");
    expect(dot.diagnostics.map((d) => d.code)).toEqual(["hcp.path.not_found"]);
  });

  it("derives metadata when absent and reports the derived values", async () => {
    const r = await checkHcp(MemoryFs.from(files({ ...baseSurface, kind: "cli" })), "/p");
    expect(r.valid).toBe(true);
    expect(r.extra).toMatchObject({ pack_id: "acme", hcp: 1, metadata_source: "derived", plane: "runtime" });
  });

  it("counts pack_id length in characters, not UTF-16 units", async () => {
    const id = "\u{1f600}".repeat(128); // 128 scalars, 256 UTF-16 units
    const policy = { surface_id: id, verbs: Object.fromEntries(VERBS.map((v) => [v, {}])) };
    const ok = await checkHcp(MemoryFs.from(files({ ...baseSurface, id }, policy)), "/p");
    expect(ok.diagnostics).toEqual([]);
    const long = `${id}a`;
    const bad = await checkHcp(
      MemoryFs.from(files({ ...baseSurface, id: long }, { ...policy, surface_id: long })),
      "/p",
    );
    expect(bad.diagnostics.map((d) => d.code)).toEqual(["hcp.identity.id_length"]);
  });

  describe("a trigger observed by polling, in any spelling (§2.4.3)", () => {
    const withTrigger = (observation: string) =>
      files(
        { ...baseSurface, stimulusTriggers: [{ ref: "t.changed", observation }] },
        { surface_id: "acme", verbs: Object.fromEntries(VERBS.map((v) => [v, {}])), stimuli: { "t.changed": {} } },
      );
    it.each([
      "poll",
      "Poll",
      "POLL",
      "polling",
      "Polling",
      "polled",
      " poll ",
      "poll:30s",
      "poll every 30s",
      "long-poll",
      "longPoll",
      "interval/poll",
    ])("%j is hcp.trigger.polling, at the value", async (observation) => {
      const r = await checkHcp(MemoryFs.from(withTrigger(observation)), "/p");
      expect(r.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
        ["hcp.trigger.polling", "/stimulusTriggers/0/observation"],
      ]);
    });
    it.each(["push", "webhook", "pollen", "stream", "apollo", ""])("near miss: %j is accepted", async (observation) => {
      const r = await checkHcp(MemoryFs.from(withTrigger(observation)), "/p");
      expect(r.diagnostics).toEqual([]);
    });
  });

  it("treats variadic arguments with enum or pattern as constrained", async () => {
    const verbs = { ...baseSurface.verbs, "t.list": { args: [{ name: "tags", variadic: true, pattern: "^[a-z]+$" }] } };
    const r = await checkHcp(MemoryFs.from(files({ ...baseSurface, verbs })), "/p");
    expect(r.diagnostics).toEqual([]);
  });

  it("answers a megabyte manifest full of bad verbs with the capped list and a count of the rest", async () => {
    const verbs: Record<string, unknown> = {};
    for (let i = 0; i < 10_000; i++) verbs[`Bad Verb/${i}`] = { argv: ["$@"] };
    const surface = JSON.stringify({ id: "acme", verbs });
    expect(surface.length).toBeLessThan(1024 * 1024);
    // The test timeout is the hang guard (quadratic position lookups would take minutes); no time is asserted.
    const r = await checkHcp(MemoryFs.from(files(surface, { surface_id: "acme" })), "/p");
    expect(r.valid).toBe(false);
    expect(r.diagnostics).toHaveLength(DIAGNOSTIC_LIMIT + 1);
    const note = r.diagnostics.at(-1)!;
    expect(note.code).toBe("hcp.diagnostic_limit");
    const more = Number(/^(\d+) more diagnostics not shown/.exec(note.message)?.[1]);
    // Every bad verb is at least one passthrough finding: shown or counted, none is lost.
    const passthrough = r.diagnostics.filter((d) => d.code === "hcp.verb.passthrough").length;
    expect(passthrough).toBeLessThanOrEqual(DIAGNOSTIC_LIMIT);
    expect(DIAGNOSTIC_LIMIT + more).toBeGreaterThanOrEqual(10_000);
  }, 60_000);
});

describe("pack digest", () => {
  const enc = new TextEncoder();
  const map = (h: string, p: string, s: string) =>
    new Map([
      ["HARNESS.md", enc.encode(h)],
      ["policy.json", enc.encode(p)],
      ["surface.json", enc.encode(s)],
    ]);

  it("is deterministic and depends on every byte and on the framing", () => {
    const a = packDigest(map("h", "p", "s"));
    expect(a).toBe(packDigest(map("h", "p", "s")));
    expect(a).not.toBe(packDigest(map("h", "p", "s ")));
    // Moving bytes from one file to the next changes the digest (lengths are part of the framing).
    expect(packDigest(map("hp", "", "s"))).not.toBe(packDigest(map("h", "p", "s")));
  });

  it("ignores files other than the three protocol files", async () => {
    const base = files(baseSurface);
    const a = await checkHcp(MemoryFs.from(base), "/p");
    const b = await checkHcp(MemoryFs.from({ ...base, "/p/notes.txt": "anything" }), "/p");
    expect(a.identity).not.toBeNull();
    expect(a.identity).toBe(b.identity);
  });
});

describe("HCP_CODES", () => {
  it("has unique, well-formed rows", () => {
    const seen = new Set<string>();
    const families = ["struct_", "size_", "danger_", "perm_", "ident_", "meta_", "audit_", "hon_"];
    const familyOfLayer: Record<string, string> = {
      L1: "struct_",
      L2: "size_",
      L3: "danger_",
      L4: "perm_",
      L5: "ident_",
      L6: "meta_",
      L7: "audit_",
      L8: "hon_",
    };
    for (const row of HCP_CODES) {
      expect(row.code).toMatch(/^hcp(\.[a-z][a-z0-9_]*)+$/);
      expect(seen.has(row.code), row.code).toBe(false);
      seen.add(row.code);
      expect(
        families.some((f) => row.reason.startsWith(f) && row.reason.length > f.length),
        row.code,
      ).toBe(true);
      expect(row.reason.startsWith(familyOfLayer[row.layer]!), `${row.code}: ${row.layer} vs ${row.reason}`).toBe(true);
      expect(row.summary.length).toBeGreaterThan(10);
      expect(row.clause).toMatch(/^HCP /);
    }
  });
});
