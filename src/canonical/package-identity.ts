/**
 * Package canonical text and `sha256:` identity (HNS §10.1; yao-v0.1.md §2.4), byte-compatible with
 * the Morphz loader, and the loadable single-file encoding used for storage (§2.3).
 */
import { contentHash } from "./hash.js";
import { printLegacy, type LegacyNode } from "./legacy.js";
import { printLoadable } from "./loadable.js";

/**
 * The manifest fields identity covers. Declared here (not imported from `hns/model`) so the
 * canonical layer stays below the loader; `hns`'s `Manifest` satisfies it structurally.
 */
export interface IdentityManifest {
  readonly id: string;
  readonly version: string;
  readonly title: string;
  readonly tools: readonly string[];
  readonly skills: readonly string[];
}

/** A function as identity sees it: its name (for ordering) and typed canonical text. */
export interface IdentityFunction {
  readonly name: string;
  readonly source: string;
}

export interface IdentityInput {
  readonly manifest: IdentityManifest;
  readonly entryId: string;
  readonly contract: LegacyNode;
  readonly mind: LegacyNode | undefined;
  /** Already sorted by name. */
  readonly functions: readonly IdentityFunction[];
  readonly entrySource: string;
}

/** The synthetic normalized manifest: known fields only, capabilities omitted when empty. */
export function normalizedManifest(manifest: IdentityManifest, entryId: string): LegacyNode {
  const form: LegacyNode[] = [
    "manifest",
    ["id", manifest.id],
    ["version", manifest.version],
    ["title", manifest.title],
    ["entry", entryId],
  ];
  const caps: LegacyNode[] = [];
  if (manifest.tools.length > 0) caps.push(["tools", ...manifest.tools]);
  if (manifest.skills.length > 0) caps.push(["skills", ...manifest.skills]);
  if (caps.length > 0) form.push(["capabilities", ...caps]);
  return form;
}

/**
 * The canonical text as pieces, separators included: hash them with `contentHashOfParts`. The
 * last `2 * functions.length + 2` pieces are the program: a "\n" before each function's text and
 * before the entry's, the entry's text last (`programPartsFrom`).
 */
export function packageCanonicalParts(p: IdentityInput): string[] {
  const parts = [printLegacy(normalizedManifest(p.manifest, p.entryId)), "\n", printLegacy(p.contract)];
  if (p.mind !== undefined) parts.push("\n", printLegacy(p.mind));
  for (const f of p.functions) parts.push("\n", f.source);
  parts.push("\n", p.entrySource);
  return parts;
}

/** Where the program's pieces (functions and entry, each after its "\n") start in `packageCanonicalParts`. */
export function programPartsFrom(parts: readonly string[], functionCount: number): number {
  return parts.length - 2 * functionCount - 2;
}

export function packageCanonicalText(p: IdentityInput): string {
  return packageCanonicalParts(p).join("");
}

export function packageIdentity(p: IdentityInput): string {
  return contentHash(packageCanonicalText(p));
}

/**
 * A single-file `.hns` text that reloads to the same identity: metadata in the loadable encoding,
 * functions and entry as typed canonical text. The manifest carries the logical entry id, so a
 * directory package round-trips through this single-file form unchanged.
 */
export function loadableSource(p: IdentityInput): string {
  const artifacts = [printLoadable(normalizedManifest(p.manifest, p.entryId)), printLoadable(p.contract)];
  if (p.mind !== undefined) artifacts.push(printLoadable(p.mind));
  for (const f of p.functions) artifacts.push(f.source);
  artifacts.push(p.entrySource);
  return artifacts.join("\n");
}

/** Names are compared by Unicode code point (= UTF-8 byte order); the one implementation is shared. */
export { compareCodePoints } from "../text/code-point-order.js";
