/**
 * OLPC canonical JSON checks as one routine over files of either source (issue 33 item 5): our A3S
 * fixtures (test/a3s/cjson.test.ts) and the A3S Use core fixtures of the reference
 * (test/reference/a3s-cjson.test.ts, skipped with a reason without the reference). Each file is its
 * own canonical form, and its digest is SHA-256 over those bytes (checked with node:crypto); a
 * source that ships the expected digest beside a file is checked against it too.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { canonicalDigest, olpcCanonical, parseStrictJson } from "../../src/a3s/package/cjson.js";

/** `files` are paths relative to `root`; `NAME.sha256` beside `NAME.json`, when there, holds its digest. */
export function canonicalFilesOn(root: string, files: readonly string[], atLeast: number): void {
  test(`there are at least ${atLeast} canonical files`, () => expect(files.length).toBeGreaterThanOrEqual(atLeast));
  test.each(files)("%s", (name) => {
    const raw = readFileSync(`${root}/${name}`, "utf8").replace(/\n$/, "");
    const value = parseStrictJson(raw);
    expect(olpcCanonical(value)).toBe(raw);
    const digest = canonicalDigest(value);
    expect(digest).toBe(`sha256:${createHash("sha256").update(raw, "utf8").digest("hex")}`);
    const shipped = `${root}/${name.replace(/\.json$/, "")}.sha256`;
    if (existsSync(shipped)) expect(digest).toBe(readFileSync(shipped, "utf8").trim());
  });
}
