/**
 * Package-level A3S checks as one routine each, run over both sources (issue 33 item 5): our
 * packages (test/a3s/own-package.ts and the runner in test/a3s/package.test.ts) and the A3S Use
 * fixture packages of the reference (test/reference/a3s-package.test.ts, skipped with a reason
 * without the reference): the package facts (fingerprint, file and byte counts, the one dangling
 * link a warning) and the execute bit of declared executables.
 */
import { expect, test } from "vitest";
import { checkA3s, detectA3s } from "../../src/a3s/index.js";
import { MemoryFs } from "../../src/fs/memory-fs.js";

type Files = Readonly<Record<string, string | Uint8Array>>;
const memFs = (files: Files, at: string) =>
  MemoryFs.from(Object.fromEntries(Object.entries(files).map(([k, v]) => [`${at}/${k}`, v])));

export interface PackageFacts {
  readonly fingerprint: string;
  readonly identity: string;
  readonly fileCount: number;
  readonly byteCount: number;
  /** The bundle document (path inside the package) whose one link is dangling. */
  readonly danglingLinkIn: string;
}

export function packageFactsCaseOn(which: string, files: Files, expected: PackageFacts): void {
  test(`${which}: the package fingerprint, file and byte counts; a dangling link is a warning`, async () => {
    expect(Object.keys(files).length).toBeGreaterThan(0);
    const fs = memFs(files, "/pkg");
    expect(await detectA3s(fs, "/pkg")).toBe(true);
    const r = await checkA3s(fs, "/pkg");
    expect({
      fingerprint: r.extra?.["fingerprint"],
      identity: r.identity,
      fileCount: r.extra?.["fileCount"],
      byteCount: r.extra?.["byteCount"],
    }).toEqual({
      fingerprint: expected.fingerprint,
      identity: expected.identity,
      fileCount: expected.fileCount,
      byteCount: expected.byteCount,
    });
    // The bundle's one dangling link is a reference diagnostic, not an error (§5.3).
    expect(r.diagnostics.map((d) => [d.code, d.severity, d.file])).toEqual([
      ["a3s.okf.dangling_link", "warning", `/pkg/${expected.danglingLinkIn}`],
    ]);
    expect(r.valid).toBe(true);
  });
}

/**
 * `tool` and `mcp` are the package paths of a declared tool task executable and MCP server
 * executable; `valid`: once both bits are set, the package has no error at all.
 */
export function executableBitCaseOn(files: Files, tool: string, mcp: string, valid: boolean): void {
  test("a tool task executable without an execute bit is reported; an executable one is not", async () => {
    const fs = memFs(files, "/p");
    fs.writeFile(`/p/${tool}`, "#!/bin/sh\n", { executable: false });
    fs.writeFile(`/p/${mcp}`, "#!/bin/sh\n", { executable: true });
    const r = await checkA3s(fs, "/p");
    const flagged = r.diagnostics.filter((d) => d.code === "a3s.package.not_executable");
    expect(flagged.map((d) => d.file)).toEqual([`/p/${tool}`]); // named under the package path as given
    expect(flagged[0]!.message).toContain("use.extension.surface_not_executable");
    fs.writeFile(`/p/${tool}`, "#!/bin/sh\n", { executable: true });
    const again = await checkA3s(fs, "/p");
    if (valid) expect(again.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(again.diagnostics.some((d) => d.code === "a3s.package.not_executable")).toBe(false);
  });
}
