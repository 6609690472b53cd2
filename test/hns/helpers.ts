/** Shared helpers for the HNS fixture, equivalence, hostile-layout and CLI tests. */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import type { IdentityInput } from "../../src/canonical/package-identity.js";
import type { LoadResult } from "../../src/hns/load.js";
import type { HnsPackage } from "../../src/hns/model.js";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const FIXTURES = join(REPO, "fixtures/hns");

/**
 * Codes no committed fixture can produce because git cannot hold the layout (symlinks, FIFOs,
 * missing paths, I/O failures) or it would bloat the repository (size limits). hostile.test.ts
 * builds each of them at run time and fails if any code listed here was not observed.
 */
export const BUILT_AT_RUN_TIME: ReadonlyMap<string, string> = new Map([
  ["hns.not_found", "a path that does not exist"],
  ["hns.io_error", "a PackageFs whose read fails"],
  ["hns.file_escape", "manifest.yao / functions/*.yao symlinked outside the package; dangling mind.yao"],
  ["hns.package_limit", "129 function files; more than 4 MiB of package files"],
  ["yao.source_limit", "a 300 KiB source, single file and directory entry"],
  [
    "hns.non_utf8_name",
    "an entry named with a non-UTF-8 byte (test/fs/non-utf8-names.test.ts); git cannot hold one portably",
  ],
]);

/** Codes of the tables that valid lexing can never produce (kept only as regression guards in src). */
export const UNREACHABLE: ReadonlyMap<string, string> = new Map([
  ["yao.invalid_character", "every character lexes (src/syntax/codes.ts says so); no input produces it"],
]);

/**
 * The reference's error of a failed load: the first diagnostic, which must be an error (further
 * independent errors and the warnings follow it, by position).
 */
export function failure(r: LoadResult): {
  code: string;
  message: string;
  referenceMessage?: string | undefined;
  file: string | undefined;
} {
  expect(r.ok, "expected the load to fail").toBe(false);
  if (r.ok) throw new Error("unreachable");
  const first = r.diagnostics[0]!;
  expect(first.severity).toBe("error");
  return { code: first.code, message: first.message, referenceMessage: first.referenceMessage, file: first.file };
}

export function loaded(r: LoadResult): HnsPackage {
  if (!r.ok)
    throw new Error(
      `expected the load to succeed, got ${r.diagnostics.map((d) => `${d.code}: ${d.message}`).join("; ")}`,
    );
  return r.package;
}

/** The identity input of a loaded package, for `loadableSource`. */
export function identityInput(p: HnsPackage): IdentityInput {
  return {
    manifest: p.manifest,
    entryId: p.entry.id,
    contract: p.contract,
    mind: p.mind,
    functions: p.functions,
    entrySource: p.entry.source,
  };
}
