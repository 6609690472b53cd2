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
  return new NormalizedPackage(
    {
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
      identity: measured.hash,
      programBytes,
    },
    parts,
  );
}

/** Every field of a package but the canonical text, which is joined from its parts when read. */
type PackageFields = Omit<HnsPackage, "canonicalText">;

/**
 * A normalized package. A class, not an object literal with a `canonicalText` getter: a literal's
 * getter is a new closure each time, so every package got a map of its own, which V8 holds from
 * the map it came from; a scavenge keeps what such a map reaches, and the closure reached every
 * canonical text and, through the functions, the tree (see LoadedFunction, function-artifact.ts).
 */
class NormalizedPackage implements HnsPackage {
  declare readonly form: PhysicalForm;
  declare readonly origin: string;
  declare readonly manifest: Manifest;
  declare readonly contract: HnsPackage["contract"];
  declare readonly mind: HnsPackage["mind"];
  declare readonly functions: readonly HnsFunction[];
  declare readonly entry: HnsPackage["entry"];
  declare readonly identity: string;
  declare readonly programBytes: number;
  #text: string | undefined = undefined;
  readonly #parts: readonly string[];

  constructor(fields: PackageFields, parts: readonly string[]) {
    this.#parts = parts;
    // The fields in the order the caller wrote them: every package has the same keys in that order.
    Object.assign(this, fields);
  }

  /** Hashed piece by piece; joined only if someone reads it (the catalog does, a check does not). */
  get canonicalText(): string {
    this.#text ??= this.#parts.join("");
    return this.#text;
  }

  /** The same package with another manifest (a spread copies own fields only: not the text). */
  withManifest(manifest: Manifest): NormalizedPackage {
    return new NormalizedPackage({ ...this, manifest }, this.#parts);
  }
}

/**
 * `pkg` with another manifest, keeping its lazily joined canonical text (a spread of a package
 * copies only its own fields).
 */
export function withManifest(pkg: HnsPackage, manifest: Manifest): HnsPackage {
  return pkg instanceof NormalizedPackage ? pkg.withManifest(manifest) : { ...pkg, manifest };
}
