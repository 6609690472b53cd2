/**
 * Entry program header inspection (HNS §9.1–9.2; loader reference §7): owner, the `(requires
 * (tools …))` upper bound and the shared `(types …)` module. No type analysis happens here.
 */
import { canonicalSource } from "../canonical/typed.js";
import { headName, type SNode, type SSymbol } from "../syntax/tree.js";
import { closestName } from "../diagnostics/suggest.js";
import type { LoadContext } from "./context.js";
import type { EntryOwner, Manifest } from "./model.js";

export interface EntryHeader {
  readonly owner: EntryOwner;
  readonly declaredTools: readonly string[] | undefined;
  /** `(requires …)` present but without a `(tools …)` clause (the reference's H5 gap). */
  readonly requiresWithoutTools: boolean;
  readonly toolNodes: readonly SSymbol[];
  readonly typeSource: string | undefined;
}

export function inspectEntryHeader(form: SNode, ctx: LoadContext): EntryHeader {
  if (form.kind !== "list") ctx.failAt("hns.entry_root", "program root must explicitly be eval or infer", form);
  const head = form.items[0];
  if (head === undefined || head.kind !== "symbol") {
    ctx.failAt(
      "hns.entry_root",
      "Yao program root is missing its evaluator name",
      form,
      "start the entry with (eval …) or (infer …)",
    );
  }
  let owner: EntryOwner;
  if (head.name === "eval") owner = "runtime";
  else if (head.name === "infer") owner = "model";
  else {
    ctx.failAt(
      "hns.entry_root",
      `unknown Yao program root '${head.name}'; use an explicit (eval ...) or (infer ...) root`,
      head,
    );
  }
  const second = form.items[1];
  if (headName(second) === "version") {
    ctx.failAt(
      "hns.in_band_version",
      "Yao source does not support an in-band version declaration; remove (version ...)",
      second!,
    );
  }

  let declaredTools: string[] | undefined;
  let requiresWithoutTools = false;
  const toolNodes: SSymbol[] = [];
  if (second !== undefined && second.kind === "list" && headName(second) === "requires") {
    let toolsClause: SNode | undefined;
    for (const clause of second.items.slice(1)) {
      if (clause.kind !== "list")
        ctx.failAt("hns.bad_requires", "every (requires ...) declaration must be a list", clause);
      if (headName(clause) !== "tools") continue;
      if (toolsClause !== undefined)
        ctx.failAt("hns.bad_requires", "(requires ...) cannot declare tools more than once", clause);
      toolsClause = clause;
      declaredTools = [];
      for (const tool of clause.items.slice(1)) {
        if (tool.kind !== "symbol") ctx.failAt("hns.bad_requires", "(tools ...) may contain only tool names", tool);
        if (declaredTools.includes(tool.name)) {
          ctx.failAt(
            "hns.bad_requires",
            `(requires (tools ...)) declares tool '${tool.name}' more than once`,
            tool,
            "list each tool once",
          );
        }
        declaredTools.push(tool.name);
        toolNodes.push(tool);
      }
    }
    requiresWithoutTools = toolsClause === undefined;
  }

  let typeSource: string | undefined;
  const afterRequires = headName(second) === "requires" ? form.items[2] : second;
  if (headName(afterRequires) === "types") typeSource = canonicalSource(afterRequires!);

  return { owner, declaredTools, requiresWithoutTools, toolNodes, typeSource };
}

const V1_MESSAGE =
  "Model-owned Harness entry must explicitly declare (requires (tools ...)); an empty list means inference-only";
const V3_MESSAGE =
  "Harnesses with fn declarations must explicitly declare the complete module (requires (tools ...)) upper bound on their entry; an empty tools list is valid for a pure module";
const NO_TOOLS_HINT =
  "(requires …) without a (tools …) clause declares no tool bound; write (requires (tools …)), or (requires (tools)) for none";

/** V1 (model entry needs a tool bound) and V2 (declared tools ⊆ manifest tools). */
export function checkEntryTools(header: EntryHeader, manifest: Manifest, entryForm: SNode, ctx: LoadContext): void {
  if (header.owner === "model" && header.declaredTools === undefined) {
    ctx.failAt(
      "hns.missing_requires",
      V1_MESSAGE,
      entryForm,
      header.requiresWithoutTools ? NO_TOOLS_HINT : requiresHint(entryForm, "infer"),
    );
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
