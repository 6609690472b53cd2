/**
 * Manifest parsing (HNS §6; loader reference §5). Fields are read with the legacy view's rule that
 * a string and a symbol are both atoms, so `(id coding)` ≡ `(id "coding")`, and in the reference's
 * order so the first error is the reference's. Then the spec's MUSTs the reference skips.
 */
import type { SList, SNode } from "../syntax/tree.js";
import { closestName, didYouMean } from "../diagnostics/suggest.js";
import type { LoadContext } from "./context.js";
import type { Manifest } from "./model.js";

const SCALARS = ["id", "version", "title", "entry"] as const;
type ScalarName = (typeof SCALARS)[number];
const KNOWN_FIELDS = new Set<string>([...SCALARS, "capabilities"]);

/** The atom text of a node in the legacy view, or undefined for a list. */
export function atomText(n: SNode | undefined): string | undefined {
  if (n === undefined) return undefined;
  if (n.kind === "symbol") return n.name;
  if (n.kind === "string") return n.value;
  return undefined;
}

function legacyHead(n: SNode): string | undefined {
  return n.kind === "list" ? atomText(n.items[0]) : undefined;
}

export function parseManifest(form: SList, ctx: LoadContext): Manifest {
  const items = form.items.slice(1);
  const scalars: Partial<Record<ScalarName, string>> = {};
  // Fields whose misspelling an error already reports with the did-you-mean: no unknown-field
  // warning for them as well (one cause, one diagnostic).
  const misspellings = new Set<SNode>();
  for (const name of SCALARS) {
    let seen: SNode | undefined;
    for (const item of items) {
      if (legacyHead(item) !== name) continue;
      if (seen !== undefined) {
        ctx.reportAt(
          "hns.duplicate_field",
          `(manifest ...) declares (${name} ...) more than once`,
          item,
          `keep one (${name} …)`,
          {
            label: "declared a second time",
            related: [{ file: seen.span.file, span: seen.span, message: `the first (${name} …) is here` }],
          },
        );
        continue;
      }
      seen = item;
      const list = item as SList;
      const value = atomText(list.items[1]);
      if (list.items.length !== 2 || value === undefined) {
        ctx.reportAt(
          "hns.bad_scalar",
          `(manifest ... (${name} ...)) must contain exactly one scalar value`,
          item,
          `write (${name} VALUE) with one symbol or string`,
        );
        continue;
      }
      scalars[name] = value;
    }
    if (seen === undefined && name !== "entry") {
      const misspelt = items.find((i) => {
        const h = legacyHead(i);
        return h !== undefined && !KNOWN_FIELDS.has(h) && closestName(h, [name]) === name;
      });
      if (misspelt === undefined) {
        ctx.reportAt(
          "hns.missing_field",
          `(manifest ...) is missing (${name} VALUE)`,
          form,
          `add (${name} "…") to the manifest`,
          {
            label: `no (${name} …) field`,
          },
        );
      } else {
        // The cause is the misspelt field, so the error points at it, and the manifest is a note.
        misspellings.add(misspelt);
        ctx.reportAt(
          "hns.missing_field",
          `(manifest ...) is missing (${name} VALUE)`,
          misspelt,
          `rename (${legacyHead(misspelt)} …) to (${name} …)`,
          {
            label: `did you mean (${name} …)?`,
            related: [{ file: form.span.file, span: form.span, message: `this (manifest …) has no (${name} …) field` }],
          },
        );
      }
    }
  }

  const tools: string[] = [];
  const skills: string[] = [];
  let capabilities: SNode | undefined;
  for (const item of items) {
    if (legacyHead(item) !== "capabilities") continue;
    if (capabilities !== undefined) {
      ctx.reportAt(
        "hns.duplicate_field",
        "(manifest ...) may declare (capabilities ...) only once",
        item,
        "merge the (capabilities …) forms",
        {
          related: [
            { file: capabilities.span.file, span: capabilities.span, message: "the first (capabilities …) is here" },
          ],
        },
      );
      continue;
    }
    capabilities = item;
    for (const member of (item as SList).items.slice(1)) {
      if (member.kind !== "list") {
        ctx.reportAt(
          "hns.bad_capabilities",
          "(capabilities ...) items must be lists",
          member,
          "write each category as a list, e.g. (tools read write)",
        );
        continue;
      }
      const category = atomText(member.items[0]);
      if (category === undefined) {
        ctx.reportAt(
          "hns.bad_capabilities",
          "(capabilities ...) item is missing its name",
          member,
          "start the list with its category: (tools …) or (skills …)",
        );
        continue;
      }
      const into = category === "tools" ? tools : category === "skills" ? skills : undefined;
      if (into === undefined) {
        ctx.warnAt(
          "hns.unknown_capability",
          `(capabilities (${category} ...)) is not a known capability category; it is ignored and grants nothing`,
          member,
          () => didYouMean(category, ["tools", "skills"]) ?? "HNS v0.1 knows (tools …) and (skills …)",
        );
        continue;
      }
      for (const value of member.items.slice(1)) {
        const name = atomText(value);
        if (name === undefined) {
          ctx.reportAt(
            "hns.bad_capabilities",
            `(capabilities (${category} ...)) accepts only atomic names`,
            value,
            `write the names directly: (${category} NAME …)`,
          );
          continue;
        }
        if (!into.includes(name)) into.push(name);
      }
    }
  }

  for (const item of items) {
    const head = legacyHead(item);
    if ((head !== undefined && KNOWN_FIELDS.has(head)) || misspellings.has(item)) continue;
    const what = item.kind === "list" ? (head === undefined ? "an empty or unnamed list" : `(${head} ...)`) : "an atom";
    const warn = (): void =>
      ctx.warnAt(
        "hns.unknown_field",
        `${what} in (manifest ...) is not an HNS v0.1 manifest field; it is ignored and not part of the package identity`,
        item,
        () => (head === undefined ? undefined : didYouMean(head, KNOWN_FIELDS)),
      );
    if (
      capabilities === undefined &&
      ctx.misspeltCapabilities === undefined &&
      head !== undefined &&
      closestName(head, KNOWN_FIELDS) === "capabilities"
    ) {
      // A misspelt (capabilities …): if the entry then requires a tool, the tool error at this
      // field says it (checkEntryTools withdraws this warning); if not, the warning is reported.
      ctx.misspeltCapabilities = item;
      ctx.holdWarning(item, warn);
      continue;
    }
    warn();
  }

  // A missing or unreadable field was reported above; "" stands in so the rest can be checked.
  const manifest: Manifest = {
    id: scalars.id ?? "",
    version: scalars.version ?? "",
    title: scalars.title ?? "",
    entry: scalars.entry,
    tools,
    skills,
  };
  for (const name of ["id", "version"] as const) {
    const value = scalars[name];
    if (value === undefined) continue;
    const field = items.find((i) => legacyHead(i) === name)!;
    if (value.trim() === "") {
      ctx.reportAt(
        "hns.empty_field",
        `(manifest ...) (${name} ...) must not be empty`,
        field,
        `write a non-empty ${name}, e.g. (${name} ${name === "id" ? "my-package" : '"1.0.0"'})`,
      );
      continue;
    }
    if (value.trim() !== value) {
      ctx.reportAt(
        "hns.empty_field",
        `(manifest ...) (${name} ...) must not have leading or trailing whitespace: ${JSON.stringify(value)}`,
        field,
        "registries compare ids and versions exactly; remove the surrounding whitespace",
      );
    }
  }
  if (scalars.title !== undefined && manifest.title.trim() === "") {
    ctx.warnAt(
      "hns.empty_title",
      "(manifest ...) (title ...) is empty; give the package a human-readable title",
      items.find((i) => legacyHead(i) === "title")!,
    );
  }
  return manifest;
}
