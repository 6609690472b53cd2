import { expect, test } from "vitest";
import { components, extension, fileName, rejectsRelativePath } from "../../src/a3s/rust-path.js";
import { describeReference, referenceJson } from "./reference.js";

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
