/**
 * Signature help inside the innermost form around the cursor that applies something: a package
 * function (its named parameters with their types, the active one the argument the cursor is in,
 * or else the first not yet given), a profile host operation (its signature from the Morphz
 * profile), or a built-in form (its shape from the operator table, the active part by position).
 * Browser-safe.
 */
import { morphzProfile } from "../yao/profile.js";
import { displayType } from "../yao/type-display.js";
import { OPERATORS } from "./operators.js";
import { packageView } from "./package-index.js";
import type { Workspace } from "./workspace.js";
import { headOf, symbolName, type LspPosition, type YNode } from "./yao-document.js";

export interface SignatureInfo {
  readonly label: string;
  readonly documentation?: string;
  /** Each parameter as [start, end) UTF-16 offsets into `label`. */
  readonly parameters: readonly { readonly label: readonly [number, number]; readonly documentation?: string }[];
  readonly activeParameter: number;
}

export async function signatureHelp(
  workspace: Workspace,
  path: string,
  position: LspPosition,
): Promise<SignatureInfo | undefined> {
  const doc = await workspace.document(path);
  const offset = doc.lines.offsetAt(position);
  let node = doc.nodeAt(offset);
  // The innermost list the cursor is inside (past its head), whose head names something applied.
  const view = await packageView(workspace, path);
  for (; node !== undefined; node = node.parent) {
    if (node.node.kind !== "list" || offset <= node.from || offset >= node.to) continue;
    const head = headOf(node);
    if (head === undefined) continue;
    if (view.index.functions.has(head)) return functionSignature(view, head, node, offset);
    const host = morphzProfile().hostOperations.get(head);
    if (host !== undefined) {
      const params = [...host.arguments].map(([n, t]) => ({ name: n, type: displayType(t) }));
      return named(
        head,
        params,
        ` → ${displayType(host.result)}`,
        node,
        offset,
        "host operation of the Morphz profile",
      );
    }
    const op = OPERATORS.get(head);
    if (op !== undefined && node.items[0]!.to < offset) return builtinSignature(op.form, op.type, node, offset);
  }
  return undefined;
}

function functionSignature(
  view: Awaited<ReturnType<typeof packageView>>,
  name: string,
  call: YNode,
  offset: number,
): SignatureInfo {
  const decl = view.index.functions.get(name)!;
  const compiled = view.state.analysis?.functions?.get(name);
  const paramsClause = decl.form.items.find((i) => headOf(i) === "params");
  const written = (paramsClause?.items.slice(1) ?? []).flatMap((p) => {
    const n = symbolName(p.items[0]);
    const t = p.items[1];
    return n === undefined ? [] : [{ name: n, type: t === undefined ? "?" : decl.doc.text.slice(t.from, t.to) }];
  });
  const params =
    compiled !== undefined && compiled.signatureKnown !== false
      ? compiled.params.map((p) => ({ name: p.name, type: displayType(p.ty) }))
      : written;
  const returnsClause = decl.form.items.find((i) => headOf(i) === "returns")?.items[1];
  const returns =
    compiled !== undefined
      ? displayType(compiled.returns)
      : returnsClause === undefined
        ? "?"
        : decl.doc.text.slice(returnsClause.from, returnsClause.to);
  const description = decl.form.items.find((i) => headOf(i) === "description")?.items[1];
  return named(
    name,
    params,
    ` → ${returns}`,
    call,
    offset,
    description?.node.kind === "string" ? description.node.value : undefined,
  );
}

/** `(NAME (p T) (q U)) → R`: the active parameter is the argument the cursor is in, else the first not given. */
function named(
  name: string,
  params: readonly { name: string; type: string }[],
  result: string,
  call: YNode,
  offset: number,
  documentation: string | undefined,
): SignatureInfo {
  let label = `(${name}`;
  const parameters: { label: readonly [number, number] }[] = [];
  for (const p of params) {
    label += " ";
    const start = label.length;
    label += `(${p.name} ${p.type})`;
    parameters.push({ label: [start, label.length] });
  }
  label += `)${result}`;
  const args = call.items.slice(1);
  const inside = args.find((a) => a.from < offset && offset <= a.to);
  const given = new Set(args.map((a) => symbolName(a.items[0])));
  let active = inside === undefined ? -1 : params.findIndex((p) => p.name === symbolName(inside.items[0]));
  if (active < 0) active = params.findIndex((p) => !given.has(p.name));
  return {
    label,
    ...(documentation === undefined ? {} : { documentation }),
    parameters,
    activeParameter: Math.max(0, active),
  };
}

/** A built-in form: its written shape (`(if COND THEN ELSE)`); the active part is the item the cursor is at. */
function builtinSignature(form: string, type: string, call: YNode, offset: number): SignatureInfo {
  const parts = [...form.matchAll(/[A-Z][A-Z-]*(?:\.\.\.)?|\([A-Z][^()]*\)(?:\.\.\.)?/g)];
  const parameters = parts.map((m) => ({ label: [m.index, m.index + m[0].length] as const }));
  // Which item (after the head) the cursor is in or before.
  let item = call.items.length - 1;
  for (let i = 1; i < call.items.length; i++)
    if (offset <= call.items[i]!.to) {
      item = i;
      break;
    }
  if (call.items.length === 1 || offset > call.items[call.items.length - 1]!.to) item = call.items.length;
  const last = parts.length - 1;
  const repeats = last >= 0 && parts[last]![0].endsWith("...");
  const active = Math.min(item - 1, repeats ? last : parts.length);
  return { label: form, documentation: type, parameters, activeParameter: Math.max(0, active) };
}
