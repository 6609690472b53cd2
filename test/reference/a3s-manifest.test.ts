import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { checkManifestText } from "../../src/a3s/manifest/check.js";
import { A3S as SHARED_A3S, describeReference, REPO, referenceJson } from "./reference.js";

interface DerivedCase {
  id: string;
  text: string;
  portResult: { ok: true } | { ok: false; code: string; message: string };
}
interface ModelCase {
  file: string;
  ok: boolean;
  manifest: unknown;
}

/** Cases the reference accepts only through an ACL leniency; strict mode reports them (docs/divergences/a3s.md). */
const STRICT_DIVERGENCES: Record<string, string> = {
  "duplicate-attribute-last-wins": "a3s.acl.duplicate_attribute",
  "missing-closing-brace-ok": "a3s.acl.unclosed_block",
  "tool-bare-ident-values-ok": "a3s.acl.unquoted_word",
};

describeReference("schema v3 against manifest-derived-cases.json", () => {
  const cases = referenceJson<DerivedCase[]>("reference", "a3s", "manifest-derived-cases.json");
  test.each(cases.map((c) => [c.id, c] as const))("%s", (id, c) => {
    const r = checkManifestText(c.text, "a3s-use-extension.acl");
    const strictErrors = r.diagnostics.filter(
      (d) => d.code.startsWith("a3s.acl.") && d.severity === "error" && d.code !== "a3s.acl.parse_error",
    );
    if (c.portResult.ok) {
      expect(r.reference).toBeNull();
      if (id in STRICT_DIVERGENCES) {
        expect(strictErrors.map((d) => d.code)).toContain(STRICT_DIVERGENCES[id]);
        expect(r.manifest).toBeNull();
      } else {
        expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
        expect(r.manifest).not.toBeNull();
      }
    } else {
      expect(r.reference).toEqual({ code: c.portResult.code, message: c.portResult.message });
      expect(r.manifest).toBeNull();
    }
  });

  test("our own cases of the same rules (fixtures/a3s/cases/manifest-rules.json) expect the same code", () => {
    const own = JSON.parse(readFileSync(join(REPO, "fixtures/a3s/cases/manifest-rules.json"), "utf8")) as {
      id: string;
      expect: { code: string | null };
    }[];
    const byId = new Map(cases.map((c) => [c.id, c.portResult.ok ? null : c.portResult.code]));
    let compared = 0;
    for (const c of own) {
      if (!byId.has(c.id)) continue;
      compared++;
      expect(c.expect.code, c.id).toBe(byId.get(c.id));
    }
    expect(compared).toBeGreaterThanOrEqual(30);
  });
});

describeReference("typed model against manifest-models.json", () => {
  const models = referenceJson<ModelCase[]>("reference", "a3s", "manifest-models.json");
  /** Where the shared data keeps each manifest; the science package's manifest is not shared. */
  const sharedPath = (file: string): string | null =>
    file.startsWith("crates/science/")
      ? null
      : file.startsWith("generated/doc-snippets/")
        ? join(SHARED_A3S, "doc-snippets", file.slice("generated/doc-snippets/".length))
        : join(SHARED_A3S, "Use", file);
  const available = models.filter((m) => sharedPath(m.file) !== null);

  test("every model except the unshared science manifest is checked", () => {
    expect(models.length - available.length).toBe(1);
  });

  test.each(available.map((m) => [m.file, m] as const))("%s", (_file, m) => {
    const r = checkManifestText(readFileSync(sharedPath(m.file)!, "utf8"), "a3s-use-extension.acl");
    expect(r.diagnostics).toEqual([]);
    expect(r.manifest).toEqual(m.manifest);
  });
});
