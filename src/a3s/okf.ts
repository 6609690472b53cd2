/**
 * OKF v0.2 bundle inspection (reference §5.2–5.3): paths, limits, frontmatter (`yaml`, YAML 1.2
 * core schema), Markdown links and images (`markdown-it` configured to behave like pulldown-cmark
 * with `Options::all()` for link extraction: wikilinks, footnotes, no link validation or
 * normalisation), reserved `index.md`/`log.md` rules, reference resolution, content digest and counts.
 *
 * The reference stops at the first error. Here the fatal steps (limits, paths, sizes) stop too,
 * but document errors are collected across all documents so every broken document is reported;
 * `errors[0]` is always the one A3S Use reports.
 */
import MarkdownIt from "markdown-it";
import type { Token } from "markdown-it";
import markdownItFootnote from "markdown-it-footnote";
import { parseDocument } from "yaml";
import { utf8Length } from "../syntax/utf8.js";
import { byteCompare } from "./manifest.js";
import { expandedDigest, OKF_DOMAIN, type DigestFile } from "./digest.js";
import { isCanonicalOkfPath, limitsProblem, type OkfBundleContract, type OkfLimits } from "./okf-contract.js";

export type OkfErrorCode = "use.okf.bundle_invalid" | "use.okf.path_escape" | "use.okf.limit_exceeded" | "use.okf.contract_invalid" | "use.okf.contract_mismatch";

export interface OkfError {
  code: OkfErrorCode;
  message: string;
  /** Bundle-relative file the error is about, when there is one. */
  path?: string;
}

export interface OkfConcept {
  id: string;
  path: string;
  type: string;
  linkCount: number;
}

export interface OkfDiagnostic {
  code: "dangling-link";
  path: string;
  target: string;
  message: string;
}

export interface OkfInspection {
  formatVersion: "0.2";
  contentDigest: string;
  conceptCount: number;
  fileCount: number;
  expandedBytes: number;
  limits: OkfLimits;
  concepts: OkfConcept[];
  diagnostics: OkfDiagnostic[];
}

export type OkfResult = { ok: true; inspection: OkfInspection } | { ok: false; errors: OkfError[] };

export const OKF_FORMAT_VERSION = "0.2";
const LIMIT_MESSAGE = "The OKF bundle exceeds its declared conformance limits.";
const CONTROL = /[\u0000-\u001f\u007f]/;
const enc = new TextEncoder();
const utf8 = new TextDecoder("utf-8", { fatal: true });

// ---------------------------------------------------------------------------------------------
// Markdown

function wikilinkRule(state: { src: string; pos: number; posMax: number; silent?: boolean; push(type: string, tag: string, nesting: number): Token }, silent: boolean): boolean {
  const { src, pos } = state;
  if (src.charCodeAt(pos) !== 0x5b || src.charCodeAt(pos + 1) !== 0x5b) return false;
  const m = /^\[\[([^\[\]\n|]+)(?:\|([^\[\]\n]*))?\]\]/.exec(src.slice(pos, state.posMax));
  if (m === null) return false;
  if (!silent) {
    const open = state.push("link_open", "a", 1);
    open.attrs = [["href", m[1]!]];
    open.markup = "wikilink";
    const text = state.push("text", "", 0);
    text.content = m[2] ?? m[1]!;
    state.push("link_close", "a", -1);
  }
  state.pos += m[0].length;
  return true;
}

let md: ReturnType<typeof MarkdownIt> | null = null;
function markdown(): ReturnType<typeof MarkdownIt> {
  if (md !== null) return md;
  const m = new MarkdownIt({ html: true, linkify: false, typographer: false });
  m.use(markdownItFootnote);
  // pulldown-cmark reports destinations as written (after CommonMark unescaping) and never drops
  // `javascript:` or `data:` links; the inspector judges them itself.
  m.validateLink = () => true;
  m.normalizeLink = (u: string) => u;
  m.normalizeLinkText = (u: string) => u;
  m.inline.ruler.before("link", "wikilink", wikilinkRule as never);
  md = m;
  return m;
}

interface MdFacts {
  destinations: string[];
  h2: string[];
}

function inlineText(children: readonly Token[] | null): string {
  let s = "";
  for (const t of children ?? []) {
    if (t.type === "text" || t.type === "code_inline" || t.type === "html_inline") s += t.content;
    else if (t.type === "softbreak") s += " ";
    else if (t.type === "image") s += inlineText(t.children);
    else if (t.type === "footnote_ref") s += `[^${String((t.meta as { label?: string } | null)?.label ?? "")}]`;
  }
  return s;
}

export function markdownFacts(body: string): MdFacts {
  const tokens = markdown().parse(body, {});
  const destinations: string[] = [];
  const h2: string[] = [];
  const walk = (ts: readonly Token[]) => {
    for (let i = 0; i < ts.length; i++) {
      const t = ts[i]!;
      if (t.type === "link_open") destinations.push(String(t.attrGet("href") ?? ""));
      else if (t.type === "image") destinations.push(String(t.attrGet("src") ?? ""));
      if (t.type === "heading_open" && t.tag === "h2") h2.push(inlineText(ts[i + 1]?.children ?? null).trim());
      if (t.children !== null) walk(t.children);
    }
  };
  walk(tokens);
  return { destinations, h2 };
}

// ---------------------------------------------------------------------------------------------
// Frontmatter

type Frontmatter = { present: false; body: string } | { present: true; value: unknown; body: string } | { error: string };

const MAX_FRONTMATTER_CHARS = 64 * 1024;
const MAX_FRONTMATTER_DEPTH = 32;

/** Deepest nesting of YAML flow collections (`[`/`{`), ignoring quoting: an upper bound is enough. */
function flowDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) max = Math.max(max, ++depth);
    else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  return max;
}

/** Lines split keeping their terminators; the first line minus `\r\n`/`\n` must be exactly `---`. */
export function splitFrontmatter(text: string): Frontmatter {
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const bare = (l: string) => l.replace(/\r?\n$/, "");
  if (lines.length === 0 || bare(lines[0]!) !== "---") return { present: false, body: text };
  for (let i = 1; i < lines.length; i++) {
    if (bare(lines[i]!) === "---") {
      const yamlText = lines.slice(1, i).join("");
      const body = lines.slice(i + 1).join("");
      // The YAML parser is neither linear nor flat on adversarial input (deep flow collections):
      // bound what reaches it.
      if (yamlText.length > MAX_FRONTMATTER_CHARS) return { error: `YAML frontmatter is larger than ${MAX_FRONTMATTER_CHARS} characters` };
      if (flowDepth(yamlText) > MAX_FRONTMATTER_DEPTH) return { error: `YAML frontmatter nests deeper than ${MAX_FRONTMATTER_DEPTH} levels` };
      const doc = parseDocument(yamlText, { version: "1.2", schema: "core", uniqueKeys: true, prettyErrors: false });
      if (doc.errors.length > 0) return { error: `invalid YAML frontmatter: ${doc.errors[0]!.message.split("\n")[0]}` };
      try {
        return { present: true, value: doc.toJS({ maxAliasCount: 100 }), body };
      } catch (e) {
        return { error: `invalid YAML frontmatter: ${e instanceof Error ? e.message : String(e)}` };
      }
    }
  }
  return { error: "unterminated YAML frontmatter block" };
}

const isMapping = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Map);

// ---------------------------------------------------------------------------------------------
// References

type RefOutcome = { kind: "ignored" } | { kind: "target"; path: string } | { kind: "error"; error: OkfError };

function percentDecode(s: string): string | null {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; ) {
    if (s[i] === "%" && /^[0-9a-fA-F]{2}$/.test(s.slice(i + 1, i + 3))) {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 3;
    } else {
      const cp = s.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      for (const b of enc.encode(ch)) bytes.push(b);
      i += ch.length;
    }
  }
  try {
    return utf8.decode(new Uint8Array(bytes));
  } catch {
    return null;
  }
}

function resolveReference(doc: string, raw: string, scopeDescriptorAllowed: boolean): RefOutcome {
  const t = raw.trim();
  if (t === "" || t.startsWith("#") || t.startsWith("//")) return { kind: "ignored" };
  const unsafe = (): RefOutcome => ({ kind: "error", error: { code: "use.okf.path_escape", path: doc, message: `OKF document '${doc}' contains unsafe path reference '${t}'.` } });
  if (t.includes("\\") || CONTROL.test(t)) return unsafe();
  let url: URL | null = null;
  try {
    url = new URL(t);
  } catch {
    url = null;
  }
  if (url !== null) {
    const scheme = url.protocol.replace(/:$/, "");
    if (scheme === "data" || scheme === "file" || scheme === "javascript") {
      return { kind: "error", error: { code: "use.okf.bundle_invalid", path: doc, message: `OKF document '${doc}' uses unsafe URI scheme '${scheme}'.` } };
    }
    return { kind: "ignored" };
  }
  if (scopeDescriptorAllowed && /\s/.test(t) && !t.startsWith(".") && !t.startsWith("/")) return { kind: "ignored" };
  const cut = t.split(/[?#]/, 1)[0]!;
  if (cut === "") return { kind: "ignored" };
  const decoded = percentDecode(cut);
  if (decoded === null || decoded.includes("\\") || CONTROL.test(decoded)) return unsafe();
  const stack = decoded.startsWith("/") ? [] : doc.split("/").slice(0, -1);
  for (const seg of decoded.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (stack.length === 0) return { kind: "error", error: { code: "use.okf.path_escape", path: doc, message: `OKF document '${doc}' references '${t}', which escapes the bundle root.` } };
      stack.pop();
    } else stack.push(seg);
  }
  if (decoded.endsWith("/") || stack.length === 0) stack.push("index.md");
  const resolved = stack.join("/");
  if (utf8Length(resolved) > 1024) return unsafe();
  return { kind: "target", path: resolved };
}

/** References of one document in the reference's order: Markdown, then frontmatter fields. */
function collectReferences(fm: unknown, destinations: readonly string[]): { target: string; scope: boolean }[] {
  const out = destinations.map((d) => ({ target: d, scope: false }));
  if (!isMapping(fm)) return out;
  for (const k of ["resource", "computation"]) if (typeof fm[k] === "string") out.push({ target: fm[k] as string, scope: false });
  for (const k of ["executor", "attester"]) {
    const v = fm[k];
    if (isMapping(v) && typeof v["resource"] === "string") out.push({ target: v["resource"], scope: false });
  }
  const sources = fm["sources"];
  if (Array.isArray(sources)) for (const s of sources) if (isMapping(s) && typeof s["resource"] === "string") out.push({ target: s["resource"], scope: true });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Inspection

function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m === null) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1]!;
  return d <= days;
}

function baseName(p: string): string {
  return p.slice(p.lastIndexOf("/") + 1);
}

export function inspectOkfBundleFiles(files: readonly DigestFile[], limits: OkfLimits): OkfResult {
  const lp = limitsProblem(limits);
  if (lp !== null) return { ok: false, errors: [{ code: "use.okf.contract_invalid", message: lp.message }] };
  const seen = new Set<string>();
  let expanded = 0;
  for (const f of files) {
    if (!isCanonicalOkfPath(f.path)) return { ok: false, errors: [{ code: "use.okf.path_escape", path: f.path, message: `The OKF bundle file path '${f.path}' is not a canonical bundle-relative path.` }] };
    if (seen.has(f.path)) return { ok: false, errors: [{ code: "use.okf.bundle_invalid", path: f.path, message: `OKF bundle file '${f.path}' is declared more than once.` }] };
    seen.add(f.path);
    expanded += f.bytes.length;
    if (expanded > limits.maxExpandedBytes || seen.size > limits.maxFiles) return { ok: false, errors: [{ code: "use.okf.limit_exceeded", path: f.path, message: LIMIT_MESSAGE }] };
  }
  const errors: OkfError[] = [];
  const concepts: OkfConcept[] = [];
  const diagnostics: OkfDiagnostic[] = [];
  const sorted = [...files].sort((a, b) => byteCompare(a.path, b.path));
  for (const f of sorted) {
    if (!f.path.endsWith(".md")) continue;
    const p = f.path;
    if (f.bytes.length > limits.maxDocumentBytes) {
      errors.push({ code: "use.okf.limit_exceeded", path: p, message: LIMIT_MESSAGE });
      break; // a limit is fatal
    }
    let text: string;
    try {
      text = utf8.decode(f.bytes);
    } catch {
      errors.push({ code: "use.okf.bundle_invalid", path: p, message: `OKF document '${p}' is not valid UTF-8.` });
      continue;
    }
    const fm = splitFrontmatter(text);
    if ("error" in fm) {
      errors.push({ code: "use.okf.bundle_invalid", path: p, message: `OKF document '${p}': ${fm.error}.` });
      continue;
    }
    const name = baseName(p);
    const fmValue = fm.present ? fm.value : undefined;
    let concept: OkfConcept | null = null;
    const bad = (message: string) => errors.push({ code: "use.okf.bundle_invalid", path: p, message });
    if (name === "index.md") {
      if (fm.present) {
        if (p !== "index.md") {
          bad(`Nested OKF index '${p}' cannot declare frontmatter.`);
          continue;
        }
        const v = fmValue;
        if (!isMapping(v) || Object.keys(v).length !== 1 || !("okf_version" in v) || typeof v["okf_version"] !== "string") {
          bad("The bundle-root index.md frontmatter requires string okf_version.");
          continue;
        }
        if (v["okf_version"] !== OKF_FORMAT_VERSION) {
          bad(`The bundle-root index.md declares okf_version '${v["okf_version"]}', but only '${OKF_FORMAT_VERSION}' is supported.`);
          continue;
        }
      }
    } else if (name === "log.md") {
      if (fm.present && !isMapping(fmValue)) {
        bad(`OKF log '${p}' frontmatter must be a mapping.`);
        continue;
      }
    } else {
      if (!fm.present || !isMapping(fmValue)) {
        bad(`OKF concept '${p}' requires YAML frontmatter mapping.`);
        continue;
      }
      const type = fmValue["type"];
      if (typeof type !== "string" || type === "" || type !== type.trim() || utf8Length(type) > 256 || CONTROL.test(type)) {
        bad(`OKF concept '${p}' requires a non-empty string type.`);
        continue;
      }
      concept = { id: p.slice(0, -3), path: p, type, linkCount: 0 };
    }
    const facts = markdownFacts(fm.body);
    if (name === "log.md") {
      let ok = facts.h2.every(isDate);
      for (let i = 1; ok && i < facts.h2.length; i++) if (!(facts.h2[i - 1]! > facts.h2[i]!)) ok = false;
      if (!ok) {
        bad(`OKF log '${p}' requires unique ISO 8601 date headings in newest-first order.`);
        continue;
      }
    }
    const refs = collectReferences(fmValue, facts.destinations);
    if (refs.length > limits.maxLinksPerDocument) {
      errors.push({ code: "use.okf.limit_exceeded", path: p, message: LIMIT_MESSAGE });
      break;
    }
    const dangling = new Set<string>();
    let refError = false;
    for (const r of refs) {
      const o = resolveReference(p, r.target, r.scope);
      if (o.kind === "error") {
        errors.push(o.error);
        refError = true;
        break;
      }
      if (o.kind === "target" && !seen.has(o.path)) dangling.add(o.path);
    }
    if (refError) continue;
    for (const target of dangling) diagnostics.push({ code: "dangling-link", path: p, target, message: `OKF document '${p}' references missing bundle target '${target}'.` });
    if (concept !== null) {
      concept.linkCount = refs.length;
      concepts.push(concept);
    }
  }
  if (errors.length > 0) return { ok: false, errors };
  if (concepts.length === 0) return { ok: false, errors: [{ code: "use.okf.bundle_invalid", message: "An OKF bundle must contain at least one concept document." }] };
  if (concepts.length > limits.maxConcepts) return { ok: false, errors: [{ code: "use.okf.limit_exceeded", message: LIMIT_MESSAGE }] };
  concepts.sort((a, b) => byteCompare(a.path, b.path));
  diagnostics.sort((a, b) => byteCompare(a.path, b.path) || byteCompare(a.target, b.target) || byteCompare(a.code, b.code));
  return {
    ok: true,
    inspection: {
      formatVersion: OKF_FORMAT_VERSION,
      contentDigest: expandedDigest(OKF_DOMAIN, files),
      conceptCount: concepts.length,
      fileCount: files.length,
      expandedBytes: expanded,
      limits: { ...limits },
      concepts,
      diagnostics,
    },
  };
}

/** `verify_inspection`: format, digest, counts and limits must equal the contract's. */
export function verifyInspection(contract: OkfBundleContract, i: OkfInspection): OkfError | null {
  const l = contract.limits;
  const same =
    contract.formatVersion === i.formatVersion &&
    contract.contentDigest === i.contentDigest &&
    contract.conceptCount === i.conceptCount &&
    contract.fileCount === i.fileCount &&
    contract.expandedBytes === i.expandedBytes &&
    l.maxFiles === i.limits.maxFiles &&
    l.maxConcepts === i.limits.maxConcepts &&
    l.maxExpandedBytes === i.limits.maxExpandedBytes &&
    l.maxDocumentBytes === i.limits.maxDocumentBytes &&
    l.maxLinksPerDocument === i.limits.maxLinksPerDocument;
  if (same) return null;
  return {
    code: "use.okf.contract_mismatch",
    message:
      `The inspected OKF bundle does not match the declared contract: expected digest ${contract.contentDigest}, concepts ${contract.conceptCount}, files ${contract.fileCount}, bytes ${contract.expandedBytes}; ` +
      `observed digest ${i.contentDigest}, concepts ${i.conceptCount}, files ${i.fileCount}, bytes ${i.expandedBytes}.`,
  };
}
