/**
 * Spans are computed only when something reads them (src/syntax/tree.ts, src/yao/expressions.ts):
 * checking a valid package, identity and `program_hash` included, builds no line index and no
 * position, while a diagnostic still gets its exact spans (the typed IR's spans: program-hash.test.ts).
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { check, MemoryFs } from "../../src/index.js";
import { NodeFs } from "../../src/node.js";
import { SourceText } from "../../src/syntax/tree.js";
import { REPO_ROOT } from "../support/repo.js";

const SUCCESS = join(REPO_ROOT, "fixtures/hns/success");

describe("lazy spans", () => {
  afterEach(() => vi.restoreAllMocks());

  it("checking a fixture with no diagnostics (identity and program_hash included) computes no span", async () => {
    const spans = vi.spyOn(SourceText.prototype, "span");
    const files = readdirSync(SUCCESS).filter((f) => f.endsWith(".hns"));
    const fs = new NodeFs();
    let clean = 0;
    for (const f of files) {
      spans.mockClear();
      const r = await check(fs, join(SUCCESS, f), { analyze: true });
      if (r.diagnostics.length > 0) continue;
      expect(typeof r.extra?.program_hash, f).toBe("string");
      expect(spans, f).not.toHaveBeenCalled();
      clean++;
    }
    expect(clean).toBeGreaterThan(20);
  });

  it("a type error still points at its exact line and column", async () => {
    const spans = vi.spyOn(SourceText.prototype, "span");
    const text = [
      '(manifest (id lazy) (version "1.0.0") (title "Lazy")) (contract (identity "lazy")) (mind)',
      "(eval (seq",
      "  (bind x 1)",
      '  (add x "two")))',
    ].join("\n");
    const r = await check(MemoryFs.from({ "/lazy.hns": text }), "/lazy.hns", { analyze: true });
    expect(r.valid).toBe(false);
    expect(spans).toHaveBeenCalled();
    const d = r.diagnostics[0]!;
    expect(d.code).toBe("yao.type_mismatch");
    // The string operand `"two"`: line 4, columns 10–15, bytes 123–128.
    expect(d.span).toEqual({ start: { byte: 123, line: 4, column: 10 }, end: { byte: 128, line: 4, column: 15 } });
  });

  it("an argument of the wrong type points at the argument and, related, at the parameter", async () => {
    const text = [
      '(manifest (id lazy) (version "1.0.0") (title "Lazy")) (contract (identity "lazy")) (mind)',
      "(fn twice (params (value Int)) (returns Int) (body (add value value)))",
      '(eval (twice (value "two")))',
    ].join("\n");
    const r = await check(MemoryFs.from({ "/lazy.hns": text }), "/lazy.hns", { analyze: true });
    const d = r.diagnostics.find((x) => x.code === "yao.type_mismatch");
    // `(value "two")` on line 3; the parameter entry `(value Int)` on line 2 (as before spans were lazy).
    expect(d?.span).toEqual({ start: { byte: 174, line: 3, column: 14 }, end: { byte: 187, line: 3, column: 27 } });
    expect(d?.related).toEqual([
      {
        file: "/lazy.hns",
        span: { start: { byte: 108, line: 2, column: 19 }, end: { byte: 119, line: 2, column: 30 } },
        message: "parameter 'value' is declared Int here",
      },
    ]);
  });
});
