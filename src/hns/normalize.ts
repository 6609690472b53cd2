/** Assemble the normalized package (HNS §10.1) and its identity from loaded parts. */
import { legacyView } from "../canonical/legacy.js";
import { compareCodePoints, packageCanonicalParts, programPartsFrom } from "../canonical/package-identity.js";
import { contentHashOfMeasuredParts } from "../canonical/hash.js";
import { canonicalSource } from "../canonical/typed.js";
import type { SNode } from "../syntax/tree.js";
import type { EntryHeader } from "./entry-header.js";
import type { HnsFunction, HnsPackage, Manifest, PhysicalForm } from "./model.js";

export interface LoadedParts {
  readonly form: PhysicalForm;
  readonly origin: string;
  readonly manifest: Manifest;
  readonly contract: SNode;
  readonly mind: SNode | undefined;
  readonly functions: readonly HnsFunction[];
  readonly entryForm: SNode;
  readonly entryFile: string;
  readonly entryId: string;
  readonly header: EntryHeader;
}

export function normalizePackage(p: LoadedParts): HnsPackage {
  const functions = [...p.functions].sort((a, b) => compareCodePoints(a.name, b.name));
  const contract = legacyView(p.contract);
  const mind = p.mind === undefined ? undefined : legacyView(p.mind);
  const entrySource = canonicalSource(p.entryForm);
  // Hashed piece by piece; the joined text is built only if someone reads it (the catalog does, a
  // check does not): at 256 KiB, joining and encoding it cost more than the hash itself.
  const parts = packageCanonicalParts({
    manifest: p.manifest,
    entryId: p.entryId,
    contract,
    mind,
    functions,
    entrySource,
  });
  const measured = contentHashOfMeasuredParts(parts);
  // The functions' and the entry's texts, without the one-byte "\n" before each.
  let programBytes = -(functions.length + 1);
  for (let k = programPartsFrom(parts, functions.length); k < parts.length; k++)
    programBytes += measured.byteLengths[k]!;
  let text: string | undefined;
  return {
    form: p.form,
    origin: p.origin,
    manifest: p.manifest,
    contract,
    mind,
    functions,
    entry: {
      id: p.entryId,
      owner: p.header.recognised.owner,
      declaredTools: p.header.declaredTools,
      typeSource: p.header.typeSource,
      source: entrySource,
      form: p.entryForm,
      header: p.header.recognised,
      file: p.entryFile,
    },
    get canonicalText(): string {
      text ??= parts.join("");
      return text;
    },
    identity: measured.hash,
    programBytes,
  };
}
