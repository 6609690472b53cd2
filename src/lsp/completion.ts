/**
 * Context-aware completion: what fits where the cursor is, best first (`sortText`).
 *
 * While typing, the text is usually not valid Yao (an unclosed `(` is the normal case), so this
 * module does not use the reader's tree: a tolerant scan of the text closes every open list at the
 * end, and the names of the package's own file (functions and their parameters, declared records
 * with their fields, unions, manifest tools, bindings) are read from that. At the cursor:
 *
 * - after `(get X ` — the fields of X's record (its declared parameter type), then other fields;
 * - in the arguments of a package function — that function's parameters, as `(NAME …)`;
 * - in a type position (`(params (x `, `(returns `, `(none `, `(decode `, a field definition…) —
 *   declared types, then the built-in ones;
 * - anywhere else — local names (parameters of the enclosing function, earlier bindings) before the
 *   package's functions and tools, and those before the built-in forms.
 *
 * Browser-safe; linear in the text.
 */
import { FORMS } from "../yao/forms.js";
import { RESERVED_TYPE_NAMES } from "../yao/types.js";

export type CompletionKind = "operator" | "function" | "type" | "field" | "tool" | "keyword" | "variable";

export interface ContextCompletion {
  readonly label: string;
  readonly kind: CompletionKind;
  readonly detail: string;
  /** Orders the list: lower sorts first (LSP `sortText`). */
  readonly sortText: string;
  /** Snippet text (LSP snippet syntax) when it differs from the label. */
  readonly snippet?: string;
}

/** A list of the tolerant tree: its items are atoms (text) or lists. */
interface Loose {
  readonly items: (string | Loose)[];
  readonly from: number;
  to: number;
}

const WHITE = /\p{White_Space}/u;

/**
 * Read `text` into lists without ever failing: strings and comments are skipped, a `)` with
 * nothing open is ignored, and lists still open at the end are closed there. Stops at `stop`.
 */
function looseRead(text: string, stop = text.length): { forms: Loose[]; open: Loose[] } {
  const top: Loose = { items: [], from: 0, to: stop };
  const stack: Loose[] = [top];
  let i = 0;
  while (i < stop) {
    const c = text[i]!;
    if (c === ";") {
      while (i < stop && text[i] !== "\n") i++;
    } else if (c === '"') {
      const block = text.startsWith('"""', i);
      const start = i;
      i += block ? 3 : 1;
      while (i < stop) {
        if (block ? text.startsWith('"""', i) : text[i] === '"') break;
        if (!block && text[i] === "\\") i++;
        i++;
      }
      i = Math.min(stop, i + (block ? 3 : 1));
      stack.at(-1)!.items.push(text.slice(start, i));
    } else if (c === "(") {
      const list: Loose = { items: [], from: i, to: stop };
      stack.at(-1)!.items.push(list);
      stack.push(list);
      i++;
    } else if (c === ")") {
      if (stack.length > 1) stack.pop()!.to = i + 1;
      i++;
    } else if (WHITE.test(c)) {
      i++;
    } else {
      const start = i;
      while (i < stop && !WHITE.test(text[i]!) && !'();"'.includes(text[i]!)) i++;
      stack.at(-1)!.items.push(text.slice(start, i));
    }
  }
  return { forms: top.items.filter((x): x is Loose => typeof x !== "string"), open: stack.slice(1) };
}

const head = (l: Loose | string | undefined): string | undefined =>
  l !== undefined && typeof l !== "string" && typeof l.items[0] === "string" ? l.items[0] : undefined;
const lists = (l: Loose): Loose[] => l.items.filter((x): x is Loose => typeof x !== "string");

interface PackageNames {
  readonly functions: Map<string, { params: { name: string; type: string }[]; returns: string | undefined }>;
  readonly records: Map<string, { name: string; type: string }[]>;
  readonly unions: Set<string>;
  readonly tools: Set<string>;
}

function typeText(t: string | Loose | undefined): string {
  if (t === undefined) return "?";
  if (typeof t === "string") return t;
  return `(${t.items.map(typeText).join(" ")})`;
}

function packageNames(forms: readonly Loose[]): PackageNames {
  const names: PackageNames = { functions: new Map(), records: new Map(), unions: new Set(), tools: new Set() };
  const visit = (l: Loose): void => {
    const h = head(l);
    if (h === "fn" && typeof l.items[1] === "string") {
      const params = (
        lists(l)
          .find((c) => head(c) === "params")
          ?.items.slice(1) ?? []
      )
        .filter((p): p is Loose => typeof p !== "string" && typeof p.items[0] === "string")
        .map((p) => ({ name: p.items[0] as string, type: typeText(p.items[1]) }));
      const returns = lists(l).find((c) => head(c) === "returns")?.items[1];
      names.functions.set(l.items[1], { params, returns: returns === undefined ? undefined : typeText(returns) });
    } else if (h === "types") {
      for (const d of lists(l)) {
        const name = d.items[1];
        if (typeof name !== "string") continue;
        if (head(d) === "record")
          names.records.set(
            name,
            lists(d)
              .filter((f) => typeof f.items[0] === "string")
              .map((f) => ({ name: f.items[0] as string, type: typeText(f.items[1]) })),
          );
        else if (head(d) === "union") names.unions.add(name);
      }
    } else if (h === "capabilities") {
      for (const c of lists(l))
        if (head(c) === "tools") for (const t of c.items.slice(1)) if (typeof t === "string") names.tools.add(t);
    }
    for (const c of lists(l)) visit(c);
  };
  for (const f of forms) visit(f);
  return names;
}

/** Heads whose operand at `index` is a type. */
function isTypePosition(chain: readonly Loose[], index: number): boolean {
  const inner = chain.at(-1);
  const h = head(inner);
  const outer = head(chain.at(-2));
  if (h === "returns" || h === "List" || h === "Map" || h === "Option" || h === "Result") return index >= 1;
  if ((h === "none" || h === "decode" || h === "from-json" || h === "is") && index === 1) return true;
  if ((h === "ok" || h === "err") && index === 2) return true;
  // (params (NAME TYPE)) and record/variant field definitions (NAME TYPE)
  if (outer === "params" && index === 1) return true;
  if (outer === "record" && head(chain.at(-3)) === "types" && index === 1) return true;
  if (head(chain.at(-3)) === "union" && index === 1) return true;
  return false;
}

/** The nearest enclosing `(fn …)` in the chain of open lists. */
function enclosingFunction(chain: readonly Loose[]): Loose | undefined {
  for (let i = chain.length - 1; i >= 0; i--) if (head(chain[i]) === "fn") return chain[i];
  return undefined;
}

/** Names bound by `(bind NAME …)` earlier in the enclosing lists, and `map`/`match` names. */
function localBindings(chain: readonly Loose[], offset: number): string[] {
  const out: string[] = [];
  const visit = (l: Loose): void => {
    if (l.from >= offset) return;
    if (head(l) === "bind" && typeof l.items[1] === "string") out.push(l.items[1]);
    for (const c of lists(l)) visit(c);
  };
  for (const l of chain) {
    if (head(l) === "map" && typeof l.items[2] === "string") out.push(l.items[2]);
    for (const c of lists(l)) if (!chain.includes(c)) visit(c);
  }
  return out;
}

/**
 * Completions at UTF-16 `offset` of `text`, the package's own names first where they fit.
 * `others` are the texts of the package's other files (functions, types and tools are read there too).
 */
export function completeAt(text: string, offset: number, others: readonly string[] = []): ContextCompletion[] {
  const names = packageNames([text, ...others].flatMap((t) => looseRead(t).forms));
  const { open } = looseRead(text, offset);
  const chain = open;
  const inner = chain.at(-1);
  // The atom being typed (if any) is the last item of the innermost list, touching the cursor.
  const typing = offset > 0 && !WHITE.test(text[offset - 1]!) && !"()".includes(text[offset - 1]!);
  const index = inner === undefined ? 0 : inner.items.length - (typing ? 1 : 0);
  const out: ContextCompletion[] = [];
  const seen = new Set<string>();
  const add = (c: ContextCompletion): void => {
    const key = `${c.kind}\u0000${c.label}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(c);
  };
  const h = head(inner);

  const declaredTypes = (rank: string): void => {
    for (const r of names.records.keys())
      add({ label: r, kind: "type", detail: "record type", sortText: `${rank}${r}` });
    for (const u of names.unions) add({ label: u, kind: "type", detail: "union type", sortText: `${rank}${u}` });
  };
  const builtinTypes = (rank: string): void => {
    for (const t of RESERVED_TYPE_NAMES)
      add({ label: t, kind: "type", detail: "built-in type", sortText: `${rank}${t}` });
  };

  if (inner !== undefined && isTypePosition(chain, index)) {
    declaredTypes("0");
    builtinTypes("1");
    return out;
  }

  const fn = enclosingFunction(chain);
  const params = fn === undefined ? [] : (names.functions.get(String(fn.items[1]))?.params ?? []);

  if (h === "get" && index === 2) {
    const receiver = inner!.items[1];
    const declared = typeof receiver === "string" ? params.find((p) => p.name === receiver)?.type : undefined;
    const own = declared === undefined ? undefined : names.records.get(declared);
    for (const f of own ?? [])
      add({
        label: f.name,
        kind: "field",
        detail: `${f.name} : ${f.type} (field of ${declared})`,
        sortText: `0${f.name}`,
      });
    for (const [record, fields] of names.records)
      for (const f of fields)
        add({
          label: f.name,
          kind: "field",
          detail: `${f.name} : ${f.type} (field of ${record})`,
          sortText: `1${f.name}`,
        });
    return out;
  }

  // Argument position of a package function: its parameters.
  const callee = h === undefined ? undefined : names.functions.get(h);
  if (callee !== undefined && index >= 1) {
    const given = new Set(lists(inner!).map((a) => head(a)));
    for (const p of callee.params)
      if (!given.has(p.name))
        add({
          label: p.name,
          kind: "variable",
          detail: `${p.name} : ${p.type} (parameter of ${h})`,
          sortText: `0${p.name}`,
          snippet: `(${p.name} $1)`,
        });
  }

  const headPosition = index === 0 && inner !== undefined;
  if (!headPosition) {
    for (const p of params)
      add({ label: p.name, kind: "variable", detail: `${p.name} : ${p.type}`, sortText: `1${p.name}` });
    for (const b of localBindings(chain, offset))
      add({ label: b, kind: "variable", detail: "binding", sortText: `1${b}` });
    add({ label: "runtime", kind: "variable", detail: "the runtime's references", sortText: "3runtime" });
  }
  if (h === "call" && index === 1)
    for (const t of names.tools)
      add({ label: t, kind: "tool", detail: "tool declared in the manifest", sortText: `0${t}` });
  for (const [name, f] of names.functions)
    add({
      label: name,
      kind: "function",
      detail: `(${name} ${f.params.map((p) => `(${p.name} ${p.type})`).join(" ")}) → ${f.returns ?? "?"}`,
      sortText: `2${name}`,
      ...(headPosition ? { snippet: `${name}${f.params.map((p, i) => ` (${p.name} $${i + 1})`).join("")}` } : {}),
    });
  for (const t of names.tools)
    add({ label: t, kind: "tool", detail: "tool declared in the manifest", sortText: `2${t}` });
  for (const f of FORMS)
    add({ label: f.name, kind: "operator", detail: `${f.signature} — ${f.type}`, sortText: `3${f.name}` });
  if (!headPosition) {
    declaredTypes("4");
    builtinTypes("5");
  }
  return out;
}
