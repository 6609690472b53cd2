/**
 * Issue 34 item 3 (docs/divergences.md): diagnostics are shown by file, then line and column, then
 * code, in every output — human, JSON, SARIF, GitHub and the language server — whatever order the
 * stages detected them in. The package below is built so detection order is not position order:
 * the fail-fast reference (and the loader) first reports the entry's ungranted tool at the end of
 * the file, the analysis reports function bodies after declarations.
 */
import { describe, expect, it } from "vitest";
import { check } from "../../src/check/check.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { renderHumanResult } from "../../src/diagnostics/render.js";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import { loadFromSource } from "../../src/hns/load.js";
import { Workspace } from "../../src/lsp/workspace.js";
import { renderResults } from "../../src/output/format.js";

const FORMAT = { color: false, toolVersion: "0", docsUri: "file:///docs/diagnostics.md" } as const;

const SOURCE = [
  '(manifest (id demo) (version "1") (title "Demo") (colour "red") (capabilities (tools read)))',
  '(contract (purpose "p"))',
  '(fn a (params) (returns Int) (body "a"))',
  "(fn b (params (x Nope)) (returns Int) (body 1))",
  '(fn c (params) (returns Int) (body (add 1 "c")))',
  "(eval (requires (tools read write)) (a))",
].join("\n");

const place = (d: Diagnostic): [number, number, string] => [d.span!.start.line, d.span!.start.column, d.code];

describe("one display order in every format", () => {
  it("the check result is in position order although detection order differs", async () => {
    const loaded = loadFromSource("/p.hns", SOURCE);
    // The loader detects the entry's tool first (the reference's error), though it is last by position.
    expect(loaded.ok ? undefined : loaded.firstError.code).toBe("hns.tool_not_in_manifest");
    const result = await check(MemoryFs.from({ "/p.hns": SOURCE }), "/p.hns");
    expect(result.diagnostics.map(place)).toEqual([
      [1, 50, "hns.unknown_field"],
      [3, 36, "yao.type_mismatch"],
      [4, 18, "yao.invalid_type"],
      [5, 43, "yao.type_mismatch"],
      [6, 29, "hns.tool_not_in_manifest"],
    ]);
  });

  it("human, JSON, SARIF and GitHub output keep that order", async () => {
    const result = await check(MemoryFs.from({ "/p.hns": SOURCE }), "/p.hns");
    const expected = result.diagnostics.map((d) => `${d.span!.start.line}:${d.code}`);
    expect(expected).toHaveLength(5);

    const human = renderHumanResult(result, { color: false })
      .split("\n")
      .flatMap((l) => {
        const m = /^\/p\.hns:(\d+):\d+: (?:error|warning)\[([a-z_.]+)\]/.exec(l);
        return m === null ? [] : [`${m[1]}:${m[2]}`];
      });
    expect(human).toEqual(expected);

    const json = JSON.parse(renderResults([result], "json", FORMAT)) as {
      results: { diagnostics: { code: string; line: number }[] }[];
    };
    expect(json.results[0]!.diagnostics.map((d) => `${d.line}:${d.code}`)).toEqual(expected);

    const sarif = JSON.parse(renderResults([result], "sarif", FORMAT)) as {
      runs: { results: { ruleId: string; locations: { physicalLocation: { region: { startLine: number } } }[] }[] }[];
    };
    expect(
      sarif.runs[0]!.results.map((r) => `${r.locations[0]!.physicalLocation.region.startLine}:${r.ruleId}`),
    ).toEqual(expected);

    const github = renderResults([result], "github", FORMAT)
      .split("\n")
      .flatMap((l) => {
        const m = /^::\w+ file=[^,]*,line=(\d+),.*title=([a-z_.]+)::/.exec(l);
        return m === null ? [] : [`${m[1]}:${m[2]}`];
      });
    expect(github).toEqual(expected);
  });

  it("the language server publishes them in the same order", async () => {
    const ws = new Workspace(MemoryFs.from({ "/p.hns": SOURCE }));
    const published = (await ws.check("/p.hns")).diagnostics.get("/p.hns") ?? [];
    expect(published.map(place)).toEqual(
      (await check(MemoryFs.from({ "/p.hns": SOURCE }), "/p.hns")).diagnostics.map(place),
    );
    expect(published).toHaveLength(5);
  });

  it("a lone Yao program in the language server is in position order too", async () => {
    const program = '(eval (requires (tools)) (seq (add 1 "x") (nope 2) (mul "y" 3)))';
    const ws = new Workspace(MemoryFs.from({ "/lone.yao": program }));
    const published = (await ws.check("/lone.yao")).diagnostics.get("/lone.yao") ?? [];
    expect(published.length).toBeGreaterThanOrEqual(2);
    const columns = published.map((d) => d.span!.start.column);
    expect(columns).toEqual([...columns].sort((x, y) => x - y));
  });
});
