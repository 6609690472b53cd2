/**
 * Entry program header checks at load level (HNS §9.1–9.2; loader reference §7): owner, the
 * `(requires (tools …))` upper bound and the shared `(types …)` module. The header is recognised by
 * src/syntax/header.ts (the one reader of Yao headers); this module words its failures with the
 * loader's `hns.*` codes in the reference loader's order. No type analysis happens here.
 */
import { canonicalSource } from "../canonical/typed.js";
import { closestName, didYouMean } from "../diagnostics/suggest.js";
import { headName, type SNode, type SSymbol } from "../syntax/tree.js";
import { recogniseEntryHeader, type EntryHeaderFailure, type EntryHeader as YaoEntryHeader } from "../syntax/header.js";
import type { LoadContext } from "./context.js";
import { atomText } from "./manifest.js";
import type { Manifest } from "./model.js";

export interface EntryHeader {
  /** The recognised header, handed to the analyzer so it does not read the entry again. */
  readonly recognised: YaoEntryHeader;
  readonly declaredTools: readonly string[] | undefined;
  /** `(requires …)` present but without a `(tools …)` clause (the reference's H5 gap). */
  readonly requiresWithoutTools: boolean;
  readonly toolNodes: readonly SSymbol[];
  /** Canonical text of the entry's `(types …)` module, printed once here. */
  readonly typeSource: string | undefined;
}

/**
 * `directoryEntry` is the entry file's display path in a directory package: there the root is
 * reported against the file (`programs/main.yao must have an (eval ...) or (infer ...) root`), as the
 * reference loader does; a single file's entry is found by its head, so only the header can fail.
 */
export function inspectEntryHeader(form: SNode, ctx: LoadContext, directoryEntry?: string): EntryHeader {
  const r = recogniseEntryHeader(form);
  if (!r.ok) return failHeader(r.failure, form, ctx, directoryEntry);
  const header = r.header;
  // The loader judges only the (tools …) clause (and that every clause is a list); the analyzer
  // judges the rest later, so a package with an unknown clause still gets its identity.
  for (const clause of header.requires?.clauses ?? []) {
    if (clause.problem?.kind === "not_list")
      ctx.failAt("hns.bad_requires", "every (requires ...) declaration must be a list", clause.node);
    if (clause.name !== "tools" || clause.problem === undefined) continue;
    const problem = clause.problem;
    if (problem.kind === "repeated")
      ctx.failAt("hns.bad_requires", "(requires ...) cannot declare tools more than once", clause.node);
    if (problem.kind === "item_not_symbol")
      ctx.failAt("hns.bad_requires", "(tools ...) may contain only tool names", problem.node);
    if (problem.kind === "item_repeated") {
      ctx.failAt(
        "hns.bad_requires",
        `(requires (tools ...)) declares tool '${problem.node.name}' more than once`,
        problem.node,
        "list each tool once",
      );
    }
  }
  const toolNodes = header.requires?.tools ?? [];
  return {
    recognised: header,
    declaredTools: header.requires?.tools?.map((t) => t.name),
    requiresWithoutTools: header.requires !== undefined && header.requires.tools === undefined,
    toolNodes,
    typeSource: header.types === undefined ? undefined : canonicalSource(header.types),
  };
}

function failHeader(f: EntryHeaderFailure, form: SNode, ctx: LoadContext, directoryEntry: string | undefined): never {
  if (f.kind === "in_band_version") {
    return ctx.failAt(
      "hns.in_band_version",
      "Yao source does not support an in-band version declaration; remove (version ...)",
      f.node,
    );
  }
  if (f.kind === "unknown_owner") {
    if (directoryEntry !== undefined) {
      return ctx.failAt(
        "hns.entry_root",
        `${directoryEntry} must have an (eval ...) or (infer ...) root; found (${f.node.name} ...)`,
        form,
        didYouMean(f.node.name, ["eval", "infer"]),
      );
    }
    return ctx.failAt(
      "hns.entry_root",
      `unknown Yao program root '${f.node.name}'; use an explicit (eval ...) or (infer ...) root`,
      f.node,
    );
  }
  if (directoryEntry !== undefined)
    return ctx.failAt("hns.entry_root", `${directoryEntry} must contain exactly one (eval ...) or (infer ...)`, form);
  if (f.kind === "not_list") return ctx.failAt("hns.entry_root", "program root must explicitly be eval or infer", form);
  return ctx.failAt(
    "hns.entry_root",
    "Yao program root is missing its evaluator name",
    form,
    "start the entry with (eval …) or (infer …)",
  );
}

const V1_MESSAGE =
  "Model-owned Harness entry must explicitly declare (requires (tools ...)); an empty list means inference-only";
const V3_MESSAGE =
  "Harnesses with fn declarations must explicitly declare the complete module (requires (tools ...)) upper bound on their entry; an empty tools list is valid for a pure module";
const NO_TOOLS_HINT =
  "(requires …) without a (tools …) clause declares no tool bound; write (requires (tools …)), or (requires (tools)) for none";

/** V1 (model entry needs a tool bound) and V2 (declared tools ⊆ manifest tools). */
export function checkEntryTools(header: EntryHeader, manifest: Manifest, entryForm: SNode, ctx: LoadContext): void {
  if (header.recognised.owner === "model" && header.declaredTools === undefined) {
    ctx.failAt(
      "hns.missing_requires",
      V1_MESSAGE,
      entryForm,
      header.requiresWithoutTools ? NO_TOOLS_HINT : requiresHint(entryForm, "infer"),
    );
  }
  const absent = header.toolNodes.filter((tool) => !manifest.tools.includes(tool.name));
  const misspelt = ctx.misspeltCapabilities;
  if (misspelt !== undefined && absent.length > 0) {
    reportMisspeltCapabilities(absent, misspelt, ctx);
    return;
  }
  // Each tool is reported on its own: several misspelt tools are several errors.
  for (const tool of header.toolNodes) {
    if (!manifest.tools.includes(tool.name)) {
      const suggestion = closestName(tool.name, manifest.tools);
      ctx.reportAt(
        "hns.tool_not_in_manifest",
        `tool '${tool.name}' declared by program requires is absent from Harness Manifest package capabilities`,
        tool,
        suggestion !== undefined
          ? `did you mean '${suggestion}'? the manifest grants (tools ${manifest.tools.join(" ")})`
          : `add ${tool.name} to (capabilities (tools …)) in the manifest, or remove it from (requires (tools …))`,
        { label: "not granted by the manifest" },
      );
    }
  }
}

/**
 * The manifest grants no tool because its `(capabilities …)` is misspelt: one cause, so one error,
 * at the misspelt field, naming every required tool it leaves out, each use a note; the unknown
 * field warning for the same field is withdrawn. The reference reports the first tool alone.
 */
function reportMisspeltCapabilities(absent: readonly SSymbol[], misspelt: SNode, ctx: LoadContext): void {
  const first = absent[0]!;
  const names = [...new Set(absent.map((t) => t.name))];
  const reference = `tool '${first.name}' declared by program requires is absent from Harness Manifest package capabilities`;
  const head = misspelt.kind === "list" ? atomText(misspelt.items[0]) : undefined;
  ctx.withdrawWarning(misspelt);
  ctx.reportAt(
    "hns.tool_not_in_manifest",
    names.length === 1
      ? reference
      : `tools ${names.map((n) => `'${n}'`).join(", ")} declared by program requires are absent from Harness Manifest package capabilities`,
    misspelt,
    `rename (${head ?? "…"} …) to (capabilities …): the manifest grants no tool until it is spelt so`,
    {
      label: "did you mean (capabilities …)?",
      related: absent.map((t) => ({ file: t.span.file, span: t.span, message: `'${t.name}' is required here` })),
      referenceMessage: reference,
    },
  );
}

/** V3: a package with functions needs the module tool bound on its entry. */
export function checkModuleBound(header: EntryHeader, functionCount: number, entryForm: SNode, ctx: LoadContext): void {
  if (functionCount > 0 && header.declaredTools === undefined) {
    ctx.failAt(
      "hns.missing_module_requires",
      V3_MESSAGE,
      entryForm,
      header.requiresWithoutTools ? NO_TOOLS_HINT : requiresHint(entryForm, "the entry root"),
    );
  }
}

/** A (requires …) written elsewhere in the entry only needs moving; otherwise it needs adding. */
function requiresHint(entryForm: SNode, after: string): string {
  const misplaced = entryForm.kind === "list" && entryForm.items.slice(2).some((i) => headName(i) === "requires");
  return misplaced
    ? `move (requires …) to right after ${after}: it is only read as the first item`
    : `add (requires (tools …)) right after ${after}`;
}
