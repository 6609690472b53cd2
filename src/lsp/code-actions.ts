/**
 * Quick fixes from the diagnostics of the package's last check, each a set of text edits that makes
 * its diagnostic go away:
 *
 * - the did-you-mean a diagnostic's help already names (names, operators, tools, fields, clauses,
 *   manifest fields): the misspelt word, found in the diagnostic's span, is replaced;
 * - a tool the program uses but the package does not grant: added to the manifest's
 *   `(capabilities (tools …))` and to the entry's `(requires (tools …))`;
 * - an exported function without a description: a `(description "…")` stub after its visibility;
 * - an unclosed list: the missing `)`s after the last thing the reader read (its help says they go
 *   before the end of the file).
 *
 * A fix is offered only when the text still says what the diagnostic was about (the check may be
 * older than the last keystroke). Browser-safe.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { readAll } from "../syntax/reader.js";
import type { TextEdit } from "./rename.js";
import type { Workspace } from "./workspace.js";
import { headOf, symbolName, type LspRange, type YaoDocument, type YNode } from "./yao-document.js";

export interface QuickFix {
  readonly title: string;
  /** The diagnostic it fixes (undefined for a reader error found in the text itself). */
  readonly diagnostic: Diagnostic;
  readonly edits: ReadonlyMap<string, readonly TextEdit[]>;
  readonly preferred: boolean;
}

const DID_YOU_MEAN = /did you mean '([^']+)'\?/;
const DELIMITERS = new Set([" ", "\t", "\n", "\r", "(", ")", '"', ";"]);

/** The quick fixes for the diagnostics of `path` whose range meets `range`. */
export async function quickFixes(workspace: Workspace, path: string, range: LspRange): Promise<QuickFix[]> {
  const doc = await workspace.document(path);
  const out: QuickFix[] = [];
  const unclosed = closeUnclosedList(doc);
  if (unclosed !== undefined && meets(doc.lines.rangeOfSpan(unclosed.diagnostic.span!), range)) out.push(unclosed);
  if (unclosed !== undefined) return out;
  const state = await workspace.packageState(path);
  for (const d of state.diagnostics?.get(path) ?? []) {
    if (d.span === undefined || !meets(doc.lines.rangeOfSpan(d.span), range)) continue;
    const fix = await fixFor(workspace, doc, d, state.files);
    if (fix !== undefined) out.push(fix);
  }
  return out;
}

function meets(a: LspRange, b: LspRange): boolean {
  const before = (p: LspRange["start"], q: LspRange["start"]): boolean =>
    p.line < q.line || (p.line === q.line && p.character < q.character);
  return !before(a.end, b.start) && !before(b.end, a.start);
}

async function fixFor(
  workspace: Workspace,
  doc: YaoDocument,
  d: Diagnostic,
  files: readonly string[],
): Promise<QuickFix | undefined> {
  const suggestion = d.hint === undefined ? undefined : DID_YOU_MEAN.exec(d.hint)?.[1];
  if (suggestion !== undefined) return replaceMisspelt(doc, d, suggestion);
  if (d.code === "yao.missing_description") return descriptionStub(doc, d);
  const tool =
    /^unknown tool '([^']+)'$/.exec(d.message)?.[1] ??
    /^tool '([^']+)' is outside the program requires\.tools set$/.exec(d.message)?.[1] ??
    /^tool '([^']+)' declared by program requires is absent/.exec(d.message)?.[1];
  if (tool !== undefined) return grantTool(workspace, doc, d, tool, files);
  return undefined;
}

// ---- did-you-mean ------------------------------------------------------------------------------

/** Replace the word the message quotes, found as a whole token in the diagnostic's span, by the suggestion. */
function replaceMisspelt(doc: YaoDocument, d: Diagnostic, suggestion: string): QuickFix | undefined {
  const range = doc.lines.rangeOfSpan(d.span!);
  const from = doc.lines.offsetAt(range.start);
  const to = doc.lines.offsetAt(range.end);
  const spanText = doc.text.slice(from, to);
  const quoted = [...d.message.matchAll(/'([^']+)'|\(([^\s()]+) \.\.\.\)/g)].map((m) => m[1] ?? m[2]!);
  // A field is the last thing a `(get E f)` or `a.b.f` span holds; other words come first.
  const last = /readable field/.test(d.message);
  for (const word of quoted.reverse()) {
    if (word === suggestion) continue;
    const at = tokenIn(spanText, word, last);
    if (at === undefined) continue;
    const start = from + at;
    return {
      title: `Change '${word}' to '${suggestion}'`,
      diagnostic: d,
      edits: new Map([[doc.path, [{ range: doc.lines.range(start, start + word.length), newText: suggestion }]]]),
      preferred: true,
    };
  }
  return undefined;
}

/** Where `word` stands as a whole token (or a dotted segment) in `text`: the first or the last. */
function tokenIn(text: string, word: string, last: boolean): number | undefined {
  let found: number | undefined;
  for (let i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + 1)) {
    const before = i === 0 ? " " : text[i - 1]!;
    const after = i + word.length >= text.length ? " " : text[i + word.length]!;
    if ((DELIMITERS.has(before) || before === ".") && (DELIMITERS.has(after) || after === ".")) {
      if (!last) return i;
      found = i;
    }
  }
  return found;
}

// ---- description stub --------------------------------------------------------------------------

function descriptionStub(doc: YaoDocument, d: Diagnostic): QuickFix | undefined {
  const name = /exported fn '([^']+)'/.exec(d.message)?.[1];
  const form = doc.forms.find((f) => headOf(f) === "fn" && symbolName(f.items[1]) === name);
  if (form === undefined || name === undefined) return undefined;
  const visibility = form.items.find((i) => headOf(i) === "visibility");
  const after = visibility ?? form.items[1]!;
  const indent = indentationOf(doc, visibility ?? form.items[2] ?? form, visibility === undefined ? 2 : 0);
  const stub = `(description "TODO: say what ${name} does and when to call it")`;
  return {
    title: `Add a (description …) to '${name}'`,
    diagnostic: d,
    edits: new Map([[doc.path, [{ range: doc.lines.range(after.to, after.to), newText: `\n${indent}${stub}` }]]]),
    preferred: true,
  };
}

/** The whitespace before `n` on its line (plus `extra` spaces), or two spaces when `n` shares its line. */
function indentationOf(doc: YaoDocument, n: YNode, extra: number): string {
  const start = doc.lines.offsetAt({ line: doc.lines.positionAt(n.from).line, character: 0 });
  const lead = doc.text.slice(start, n.from);
  return /^[ \t]*$/.test(lead) && lead.length > 0 ? lead + " ".repeat(extra) : "  ";
}

// ---- tools -------------------------------------------------------------------------------------

/** Grant `tool`: in the manifest's capabilities and in the entry's requires, where it is missing. */
async function grantTool(
  workspace: Workspace,
  doc: YaoDocument,
  d: Diagnostic,
  tool: string,
  files: readonly string[],
): Promise<QuickFix | undefined> {
  const edits = new Map<string, TextEdit[]>();
  const add = (target: YaoDocument, e: TextEdit): void => {
    (edits.get(target.path) ?? edits.set(target.path, []).get(target.path)!).push(e);
  };
  const docs = [doc];
  for (const f of files) if (f !== doc.path) docs.push(await workspace.document(f));
  let granted = false;
  let required = false;
  const manifest = findForm(docs, "manifest");
  const entry = findForm(docs, "eval") ?? findForm(docs, "infer");
  if (manifest !== undefined) {
    const caps = manifest.form.items.find((i) => headOf(i) === "capabilities");
    const tools = caps?.items.find((i) => headOf(i) === "tools");
    if (tools === undefined || !tools.items.slice(1).some((t) => symbolName(t) === tool)) {
      const at = caps === undefined ? manifest.form : (tools ?? caps);
      const text =
        caps === undefined ? ` (capabilities (tools ${tool}))` : tools === undefined ? ` (tools ${tool})` : ` ${tool}`;
      add(manifest.doc, { range: manifest.doc.lines.range(at.to - 1, at.to - 1), newText: text });
      granted = true;
    }
  }
  if (entry !== undefined) {
    const requires = entry.form.items.find((i) => headOf(i) === "requires");
    const tools = requires?.items.find((i) => headOf(i) === "tools");
    // Only a bound that exists is widened: `(requires)` without tools, or none, bounds nothing.
    if (tools !== undefined && !tools.items.slice(1).some((t) => symbolName(t) === tool)) {
      add(entry.doc, { range: entry.doc.lines.range(tools.to - 1, tools.to - 1), newText: ` ${tool}` });
      required = true;
    }
  }
  if (edits.size === 0) return undefined;
  const where = [...(granted ? ["the manifest's capabilities"] : []), ...(required ? ["the entry's requires"] : [])];
  return { title: `Add tool '${tool}' to ${where.join(" and ")}`, diagnostic: d, edits, preferred: true };
}

function findForm(docs: readonly YaoDocument[], head: string): { doc: YaoDocument; form: YNode } | undefined {
  for (const doc of docs) for (const form of doc.forms) if (headOf(form) === head) return { doc, form };
  return undefined;
}

// ---- unclosed list -----------------------------------------------------------------------------

/** When the text does not read because lists are left open: insert the `)`s after the last token. */
function closeUnclosedList(doc: YaoDocument): QuickFix | undefined {
  const read = readAll(doc.text, { file: doc.path });
  if (read.ok || read.diagnostic.code !== "yao.unclosed_list") return undefined;
  const { depth, lastToken } = openLists(doc.text);
  if (depth <= 0) return undefined;
  const closing = ")".repeat(depth);
  return {
    title: depth === 1 ? "Close the list: insert ')'" : `Close the ${depth} open lists: insert '${closing}'`,
    diagnostic: read.diagnostic,
    edits: new Map([[doc.path, [{ range: doc.lines.range(lastToken, lastToken), newText: closing }]]]),
    preferred: true,
  };
}

/** How many lists are open at the end of the text, and the offset after its last token (not a comment). */
function openLists(text: string): { depth: number; lastToken: number } {
  let depth = 0;
  let lastToken = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === ";") {
      const nl = text.indexOf("\n", i);
      i = nl < 0 ? text.length : nl;
    } else if (c === '"') {
      const block = text.startsWith('"""', i);
      if (block) {
        const end = text.indexOf('"""', i + 3);
        i = end < 0 ? text.length : end + 3;
      } else {
        i++;
        while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
        i = Math.min(i + 1, text.length);
      }
      lastToken = i;
    } else if (c === "(" || c === ")") {
      depth += c === "(" ? 1 : -1;
      i++;
      lastToken = i;
    } else if (DELIMITERS.has(c)) i++;
    else {
      while (i < text.length && !DELIMITERS.has(text[i]!)) i++;
      lastToken = i;
    }
  }
  return { depth, lastToken };
}
