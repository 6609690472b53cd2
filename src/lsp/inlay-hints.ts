/**
 * Inlay hints from the typed IR of the package's current check: the inferred type after each
 * `(bind NAME …)`'s name, the result type after each function application or tool call whose
 * result is not already shown by a bind, and each function's effect summary after its name
 * (`⟨tool read⟩`, `⟨pure⟩`). The check is redone first when the text changed since (package-index),
 * so the hints are those of the text shown. Browser-safe.
 */
import type { Effect, HirExpr } from "../../ir/yao-ir-0.1.js";
import { hirChildren } from "../yao/hir-children.js";
import { displayType } from "../yao/type-display.js";
import { packageView } from "./package-index.js";
import type { Workspace } from "./workspace.js";
import { headOf, symbolName, type LspPosition, type LspRange, type YaoDocument, type YNode } from "./yao-document.js";

export interface InlayHintInfo {
  readonly position: LspPosition;
  readonly label: string;
  readonly kind: "type" | "effects";
}

export async function inlayHints(workspace: Workspace, path: string, range: LspRange): Promise<InlayHintInfo[]> {
  const view = await packageView(workspace, path);
  const analysis = view.state.analysis;
  const doc = view.docs.find((d) => d.path === path);
  if (analysis === undefined || doc === undefined || !doc.readOk) return [];
  const lists = listsByStart(doc);
  const out: InlayHintInfo[] = [];
  const inFile = (e: HirExpr): boolean => e.span.file === path || path.endsWith(`/${e.span.file}`);
  const listOf = (e: HirExpr): YNode | undefined => {
    const n = lists.get(doc.lines.offsetAt(doc.lines.fromReader(e.span.start)));
    return n !== undefined && n.node.span.end.byte === e.span.end.byte ? n : undefined;
  };
  const visit = (e: HirExpr, parent: HirExpr | undefined): void => {
    const k = e.kind;
    if (inFile(e)) {
      if (k.op === "bind") {
        const name = listOf(e)?.items[1];
        if (name !== undefined && symbolName(name) === k.name)
          out.push({ position: doc.lines.positionAt(name.to), label: `: ${displayType(k.value.ty)}`, kind: "type" });
      } else if ((k.op === "function_application" || k.op === "call") && parent?.kind.op !== "bind") {
        const form = listOf(e);
        if (form !== undefined)
          out.push({ position: doc.lines.positionAt(form.to), label: ` → ${displayType(e.ty)}`, kind: "type" });
      }
    }
    if (k.op === "function_application") {
      // The callee's linked body belongs to the callee, not to this call site.
      for (const a of k.arguments) for (const v of a.values) visit(v, e);
      return;
    }
    for (const c of hirChildren(e)) visit(c, e);
  };
  if (analysis.program) visit(analysis.program.body, undefined);
  for (const f of analysis.functions?.values() ?? []) visit(f.body, undefined);
  for (const form of doc.forms) {
    if (headOf(form) !== "fn") continue;
    const nameNode = form.items[1];
    const compiled = analysis.functions?.get(symbolName(nameNode) ?? "");
    if (compiled === undefined || nameNode === undefined) continue;
    out.push({
      position: doc.lines.positionAt(nameNode.to),
      label: effectSummary(compiled.body.effects),
      kind: "effects",
    });
  }
  return out
    .filter((h) => within(h.position, range))
    .sort((a, b) => a.position.line - b.position.line || a.position.character - b.position.character);
}

/** `⟨tool read, infer⟩`, or `⟨pure⟩` for no effects. */
export function effectSummary(effects: readonly Effect[]): string {
  const one = (e: Effect): string =>
    e.kind === "infer"
      ? "infer"
      : e.kind === "program"
        ? `program ${e.name.map(one).join(" ")}`
        : `${e.kind} ${e.name}`;
  return effects.length === 0 ? "⟨pure⟩" : `⟨${effects.map(one).join(", ")}⟩`;
}

function listsByStart(doc: YaoDocument): Map<number, YNode> {
  const out = new Map<number, YNode>();
  for (const n of doc.walk()) if (n.node.kind === "list") out.set(n.from, n);
  return out;
}

function within(p: LspPosition, r: LspRange): boolean {
  const after = (a: LspPosition, b: LspPosition): boolean =>
    a.line > b.line || (a.line === b.line && a.character >= b.character);
  return after(p, r.start) && after(r.end, p);
}
