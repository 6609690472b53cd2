import { expect, test } from "vitest";
import { components, extension, fileName, rejectsRelativePath } from "../../src/a3s/manifest/rust-path.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describeReference, REPO, referenceJson } from "./reference.js";

interface PathCase {
  path: string;
  components: unknown[];
  validate_relative_path_rejects: boolean;
  file_name: string | null;
  extension: string | null;
}

describeReference("Rust path semantics against rust-unix-path-cases.json", () => {
  const cases = referenceJson<PathCase[]>("reference", "a3s", "rust-unix-path-cases.json");
  test.each(cases.map((c) => [JSON.stringify(c.path), c] as const))("Rust path semantics %s", (_n, c) => {
    expect(components(c.path)).toEqual(c.components);
    expect(rejectsRelativePath(c.path)).toBe(c.validate_relative_path_rejects);
    expect(fileName(c.path)).toBe(c.file_name);
    expect(extension(c.path)).toBe(c.extension);
  });
});

describeReference("our path cases (fixtures/a3s/cases) against the reference on the inputs both have", () => {
  const own = JSON.parse(readFileSync(join(REPO, "fixtures/a3s/cases/rust-paths.json"), "utf8")) as {
    path: string;
    expect: string;
  }[];
  const ref = new Map(
    referenceJson<PathCase[]>("reference", "a3s", "rust-unix-path-cases.json").map((c) => [
      c.path,
      c.validate_relative_path_rejects,
    ]),
  );
  test("the same path has the same verdict", () => {
    const both = own.filter((c) => ref.has(c.path));
    expect(both.length).toBeGreaterThanOrEqual(3);
    for (const c of both) expect(c.expect === "rejected", c.path).toBe(ref.get(c.path));
  });
});
