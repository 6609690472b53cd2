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
import type { Position } from "../../diagnostics/diagnostic.js";
import { positionOfByte, TextPositions } from "../../diagnostics/text-positions.js";
import { firstInvalidUtf8Offset, utf8Length } from "../../syntax/utf8.js";
import { rustUtf8ErrorText } from "./utf8-error.js";
import { byteCompare } from "../manifest/schema.js";
import { expandedDigest, OKF_DOMAIN, type DigestFile } from "../package/digest.js";
import { isCanonicalOkfPath, limitsProblem, type OkfBundleContract, type OkfLimits } from "./contract.js";

export type OkfErrorCode =
  | "use.okf.bundle_invalid"
  | "use.okf.path_escape"
  | "use.okf.limit_exceeded"
  | "use.okf.contract_invalid"
  | "use.okf.contract_mismatch";

export interface OkfError {
  code: OkfErrorCode;
  /** The reference's sentence, verbatim (docs/a3s.md "OKF messages"); never carries extra detail. */
  message: string;
  /** Bundle-relative file the error is about, when there is one. */
  path?: string;
  /** Where in that document: the offending link, frontmatter key or heading (or the document start). */
  at?: Position;
  /** What the reference's sentence leaves out (the offending target, the parser's complaint). */
  detail?: string;
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

/** Where each dangling-link diagnostic points (kept beside the inspection, whose shape is the reference's). */
export interface OkfDiagnosticLocation {
  path: string;
  target: string;
  at: Position;
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

export type OkfResult =
  | { ok: true; inspection: OkfInspection; locations?: OkfDiagnosticLocation[] }
  | { ok: false; errors: OkfError[] };

export const OKF_FORMAT_VERSION = "0.2";
const LIMIT_MESSAGE = "The OKF bundle exceeds its declared conformance limits.";
const CONTROL = /[\u0000-\u001f\u007f]/;
const enc = new TextEncoder();
const utf8 = new TextDecoder("utf-8", { fatal: true });

// ---------------------------------------------------------------------------------------------
// Markdown

function wikilinkRule(
  state: {
    src: string;
    pos: number;
    posMax: number;
    silent?: boolean;
    push(type: string, tag: string, nesting: number): Token;
  },
  silent: boolean,
): boolean {
  const { src, pos } = state;
  if (src.charCodeAt(pos) !== 0x5b || src.charCodeAt(pos + 1) !== 0x5b) return false;
  const m = /^\[\[([^[\]\n|]+)(?:\|([^[\]\n]*))?\]\]/.exec(src.slice(pos, state.posMax));
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
  /** 0-based body line of the block holding each destination (markdown-it keeps no inline offsets). */
  destinationLines: number[];
  h2: string[];
  /** 0-based body line of each H2 heading. */
  h2Lines: number[];
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
  const facts: MdFacts = { destinations: [], destinationLines: [], h2: [], h2Lines: [] };
  const walk = (ts: readonly Token[], line: number) => {
    for (let i = 0; i < ts.length; i++) {
      const t = ts[i]!;
      const here = t.map !== null ? t.map[0] : line;
      if (t.type === "link_open") {
        facts.destinations.push(String(t.attrGet("href") ?? ""));
        facts.destinationLines.push(here);
      } else if (t.type === "image") {
        facts.destinations.push(String(t.attrGet("src") ?? ""));
        facts.destinationLines.push(here);
      }
      if (t.type === "heading_open" && t.tag === "h2") {
        facts.h2.push(inlineText(ts[i + 1]?.children ?? null).trim());
        facts.h2Lines.push(here);
      }
      if (t.children !== null) walk(t.children, here);
    }
  };
  walk(tokens, 0);
  return facts;
}

// ---------------------------------------------------------------------------------------------
// Frontmatter

/**
 * `bodyLine` is the 1-based line of the document where the body starts; `yaml` is the frontmatter
 * text (lines 2…), kept to locate keys. An invalid block says where the parser stopped as a UTF-16
 * offset into the document: the caller turns it into a line and column with the document's one
 * TextPositions, so tabs, wide and combining characters before the error count as in every other
 * position and code frame (this function counts no columns of its own).
 */
type Frontmatter =
  | { present: false; body: string; bodyLine: 1 }
  | { present: true; value: unknown; body: string; bodyLine: number; yaml: string }
  | { error: "unterminated" }
  | { error: "invalid"; detail: string; offset: number };

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
  if (lines.length === 0 || bare(lines[0]!) !== "---") return { present: false, body: text, bodyLine: 1 };
  for (let i = 1; i < lines.length; i++) {
    if (bare(lines[i]!) === "---") {
      const yamlText = lines.slice(1, i).join("");
      const yamlStart = lines[0]!.length;
      const body = lines.slice(i + 1).join("");
      // The YAML parser is neither linear nor flat on adversarial input (deep flow collections):
      // bound what reaches it.
      if (yamlText.length > MAX_FRONTMATTER_CHARS)
        return {
          error: "invalid",
          detail: `YAML frontmatter is larger than ${MAX_FRONTMATTER_CHARS} characters`,
          offset: yamlStart,
        };
      if (flowDepth(yamlText) > MAX_FRONTMATTER_DEPTH)
        return {
          error: "invalid",
          detail: `YAML frontmatter nests deeper than ${MAX_FRONTMATTER_DEPTH} levels`,
          offset: yamlStart,
        };
      const doc = parseDocument(yamlText, { version: "1.2", schema: "core", uniqueKeys: true, prettyErrors: false });
      if (doc.errors.length > 0) {
        const e = doc.errors[0]!;
        // The parser's position is a UTF-16 index into the YAML text, which starts after line 1.
        return {
          error: "invalid",
          detail: e.message.split("\n")[0]!,
          offset: yamlStart + Math.min(e.pos[0], yamlText.length),
        };
      }
      try {
        return { present: true, value: doc.toJS({ maxAliasCount: 100 }), body, bodyLine: i + 2, yaml: yamlText };
      } catch (e) {
        return { error: "invalid", detail: e instanceof Error ? e.message : String(e), offset: yamlStart };
      }
    }
  }
  return { error: "unterminated" };
}

const isMapping = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Map);

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
  // The reference's sentences name only the document; the target goes in `detail`.
  const fail = (code: OkfErrorCode, message: string, why: string): RefOutcome => ({
    kind: "error",
    error: { code, path: doc, message, detail: `'${t}' ${why}` },
  });
  const unsafe = (why: string) =>
    fail("use.okf.path_escape", `OKF document '${doc}' contains an unsafe path reference.`, why);
  if (t.includes("\\")) return unsafe("contains a backslash");
  if (CONTROL.test(t)) return unsafe("contains a control character");
  let url: URL | null = null;
  try {
    url = new URL(t);
  } catch {
    url = null;
  }
  if (url !== null) {
    const scheme = url.protocol.replace(/:$/, "");
    if (scheme === "data" || scheme === "file" || scheme === "javascript") {
      return fail(
        "use.okf.bundle_invalid",
        `OKF document '${doc}' contains unsafe URI scheme '${scheme}'.`,
        "is not a bundle path or a safe URL",
      );
    }
    return { kind: "ignored" };
  }
  if (scopeDescriptorAllowed && /\s/.test(t) && !t.startsWith(".") && !t.startsWith("/")) return { kind: "ignored" };
  const cut = t.split(/[?#]/, 1)[0]!;
  if (cut === "") return { kind: "ignored" };
  const decoded = percentDecode(cut);
  if (decoded === null)
    return fail(
      "use.okf.path_escape",
      `OKF document '${doc}' contains a non-UTF-8 path reference.`,
      "percent-decodes to bytes that are not UTF-8",
    );
  if (decoded.includes("\\")) return unsafe("decodes to a backslash");
  if (CONTROL.test(decoded)) return unsafe("decodes to a control character");
  const stack = decoded.startsWith("/") ? [] : doc.split("/").slice(0, -1);
  for (const seg of decoded.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (stack.length === 0)
        return fail(
          "use.okf.path_escape",
          `OKF document '${doc}' contains a reference outside the bundle.`,
          "leaves the bundle root",
        );
      stack.pop();
    } else stack.push(seg);
  }
  if (decoded.endsWith("/") || stack.length === 0) stack.push("index.md");
  const resolved = stack.join("/");
  if (utf8Length(resolved) > 1024)
    return fail(
      "use.okf.path_escape",
      `OKF document '${doc}' contains an oversized path reference.`,
      "resolves to a path longer than 1024 bytes",
    );
  return { kind: "target", path: resolved };
}

/**
 * A reference and where it was written: a Markdown destination's block line in the body, or the
 * frontmatter key that holds it.
 */
interface Reference {
  target: string;
  scope: boolean;
  bodyLine?: number;
  key?: string;
}

/** References of one document in the reference's order: Markdown, then frontmatter fields. */
function collectReferences(fm: unknown, facts: MdFacts): Reference[] {
  const out: Reference[] = facts.destinations.map((d, i) => ({
    target: d,
    scope: false,
    bodyLine: facts.destinationLines[i]!,
  }));
  if (!isMapping(fm)) return out;
  for (const k of ["resource", "computation"])
    if (typeof fm[k] === "string") out.push({ target: fm[k] as string, scope: false, key: k });
  for (const k of ["executor", "attester"]) {
    const v = fm[k];
    if (isMapping(v) && typeof v["resource"] === "string") out.push({ target: v["resource"], scope: false, key: k });
  }
  const sources = fm["sources"];
  if (Array.isArray(sources))
    for (const s of sources)
      if (isMapping(s) && typeof s["resource"] === "string")
        out.push({ target: s["resource"], scope: true, key: "sources" });
  return out;
}

/** Index of the first frontmatter line (document line ≥ 2) that starts key `key:` at any indentation, else -1. */
function frontmatterKeyIndex(positions: TextPositions, yaml: string, key: string): number {
  const m = new RegExp(`^[ \\t]*(?:- )?["']?${key}["']?[ \\t]*:`, "m").exec(yaml);
  if (m === null) return -1;
  return positions.lineStart(2) + m.index + m[0].length - m[0].trimStart().length;
}

// ---------------------------------------------------------------------------------------------
// Inspection

function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m === null) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][
    mo - 1
  ]!;
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
    if (!isCanonicalOkfPath(f.path))
      return {
        ok: false,
        errors: [
          {
            code: "use.okf.path_escape",
            path: f.path,
            message: `The OKF bundle file '${f.path}' is not a canonical bundle-relative path.`,
          },
        ],
      };
    if (seen.has(f.path))
      return {
        ok: false,
        errors: [
          {
            code: "use.okf.bundle_invalid",
            path: f.path,
            message: `OKF bundle file '${f.path}' is declared more than once.`,
          },
        ],
      };
    seen.add(f.path);
    expanded += f.bytes.length;
    if (expanded > limits.maxExpandedBytes || seen.size > limits.maxFiles)
      return { ok: false, errors: [{ code: "use.okf.limit_exceeded", path: f.path, message: LIMIT_MESSAGE }] };
  }
  const errors: OkfError[] = [];
  const concepts: OkfConcept[] = [];
  const diagnostics: OkfDiagnostic[] = [];
  const locations: OkfDiagnosticLocation[] = [];
  const START: Position = { byte: 0, line: 1, column: 1 };
  const sorted = [...files].sort((a, b) => byteCompare(a.path, b.path));
  for (const f of sorted) {
    if (!f.path.endsWith(".md")) continue;
    const p = f.path;
    if (f.bytes.length > limits.maxDocumentBytes) {
      errors.push({
        code: "use.okf.limit_exceeded",
        path: p,
        message: LIMIT_MESSAGE,
        detail: `'${p}' is ${f.bytes.length} bytes; maxDocumentBytes is ${limits.maxDocumentBytes}`,
      });
      break; // a limit is fatal
    }
    let text: string;
    try {
      text = utf8.decode(f.bytes);
    } catch {
      const bad = firstInvalidUtf8Offset(f.bytes);
      errors.push({
        code: "use.okf.bundle_invalid",
        path: p,
        message: `OKF Markdown document '${p}' must be UTF-8: ${rustUtf8ErrorText(f.bytes, bad)}`,
        at: positionOfByte(f.bytes, bad),
      });
      continue;
    }
    const positions = new TextPositions(text, "lf");
    const fm = splitFrontmatter(text);
    if ("error" in fm) {
      if (fm.error === "unterminated")
        errors.push({
          code: "use.okf.bundle_invalid",
          path: p,
          message: `OKF document '${p}' has an unterminated YAML frontmatter block.`,
          at: START,
          detail: "no closing '---' line",
        });
      else {
        const at = positions.position(fm.offset);
        errors.push({
          code: "use.okf.bundle_invalid",
          path: p,
          message: `OKF document '${p}' has invalid YAML frontmatter: ${fm.detail}`,
          at,
        });
      }
      continue;
    }
    const name = baseName(p);
    const fmValue = fm.present ? fm.value : undefined;
    const keyPositions = new Map<string, Position>();
    const keyAt = (key: string): Position => {
      if (!fm.present) return START;
      let at = keyPositions.get(key);
      if (at === undefined) {
        const i = frontmatterKeyIndex(positions, fm.yaml, key);
        at = i < 0 ? START : positions.position(i);
        keyPositions.set(key, at);
      }
      return at;
    };
    let concept: OkfConcept | null = null;
    const bad = (message: string, at: Position = START, detail?: string) =>
      errors.push(
        detail === undefined
          ? { code: "use.okf.bundle_invalid", path: p, message, at }
          : { code: "use.okf.bundle_invalid", path: p, message, at, detail },
      );
    const notMapping = () =>
      bad(`OKF document '${p}' frontmatter must be a YAML mapping.`, positions.position(positions.lineStart(2)));
    if (name === "index.md") {
      if (fm.present) {
        if (p !== "index.md") {
          bad(`Only the bundle-root index.md may contain frontmatter; '${p}' does not.`);
          continue;
        }
        const v = fmValue;
        if (!isMapping(v)) {
          notMapping();
          continue;
        }
        const extra = Object.keys(v).find((k) => k !== "okf_version");
        if (extra !== undefined) {
          bad(
            "The bundle-root index.md frontmatter may contain only okf_version.",
            keyAt(extra),
            `unexpected key '${extra}'`,
          );
          continue;
        }
        if (typeof v["okf_version"] !== "string") {
          bad("The bundle-root index.md frontmatter requires string okf_version.", keyAt("okf_version"));
          continue;
        }
        if (v["okf_version"] !== OKF_FORMAT_VERSION) {
          bad(
            `The bundle-root okf_version '${v["okf_version"]}' does not match the declared format version '${OKF_FORMAT_VERSION}'.`,
            keyAt("okf_version"),
          );
          continue;
        }
      }
    } else if (name === "log.md") {
      if (fm.present && !isMapping(fmValue)) {
        notMapping();
        continue;
      }
    } else {
      if (!fm.present) {
        bad(`OKF concept '${p}' requires a YAML frontmatter block.`);
        continue;
      }
      if (!isMapping(fmValue)) {
        notMapping();
        continue;
      }
      const type = fmValue["type"];
      if (
        typeof type !== "string" ||
        type === "" ||
        type !== type.trim() ||
        utf8Length(type) > 256 ||
        CONTROL.test(type)
      ) {
        bad(`OKF concept '${p}' requires a non-empty string type.`, "type" in fmValue ? keyAt("type") : START);
        continue;
      }
      concept = { id: p.slice(0, -3), path: p, type, linkCount: 0 };
    }
    const facts = markdownFacts(fm.body);
    const bodyLineAt = (bodyLine: number) => positions.position(positions.lineStart(fm.bodyLine + bodyLine));
    if (name === "log.md") {
      let wrong = facts.h2.findIndex((h) => !isDate(h));
      for (let i = 1; wrong < 0 && i < facts.h2.length; i++) if (!(facts.h2[i - 1]! > facts.h2[i]!)) wrong = i;
      if (wrong >= 0) {
        bad(
          `OKF log '${p}' requires unique ISO 8601 date headings in newest-first order.`,
          bodyLineAt(facts.h2Lines[wrong]!),
          `heading '${facts.h2[wrong]}'`,
        );
        continue;
      }
    }
    const refs = collectReferences(fmValue, facts);
    if (refs.length > limits.maxLinksPerDocument) {
      errors.push({
        code: "use.okf.limit_exceeded",
        path: p,
        message: LIMIT_MESSAGE,
        at: START,
        detail: `'${p}' has ${refs.length} references; maxLinksPerDocument is ${limits.maxLinksPerDocument}`,
      });
      break;
    }
    // Where a reference was written: its destination text inside its block when it is found there
    // as written (CommonMark unescaping can change it), else the block's first line.
    let searchFrom = 0;
    const refAt = (r: Reference): Position => {
      if (r.key !== undefined) return keyAt(r.key);
      const blockStart = positions.lineStart(fm.bodyLine + (r.bodyLine ?? 0));
      const from = Math.max(blockStart, searchFrom);
      const i = r.target === "" ? -1 : text.indexOf(r.target, from);
      if (i < 0) return positions.position(blockStart);
      searchFrom = i + r.target.length;
      return positions.position(i);
    };
    const dangling = new Map<string, Position>();
    let refError = false;
    for (const r of refs) {
      const o = resolveReference(p, r.target, r.scope);
      if (o.kind === "error") {
        errors.push({ ...o.error, at: refAt(r) });
        refError = true;
        break;
      }
      const at = refAt(r);
      if (o.kind === "target" && !seen.has(o.path) && !dangling.has(o.path)) dangling.set(o.path, at);
    }
    if (refError) continue;
    for (const [target, at] of dangling) {
      diagnostics.push({
        code: "dangling-link",
        path: p,
        target,
        message: `OKF document '${p}' references missing bundle target '${target}'.`,
      });
      locations.push({ path: p, target, at });
    }
    if (concept !== null) {
      concept.linkCount = refs.length;
      concepts.push(concept);
    }
  }
  if (errors.length > 0) return { ok: false, errors };
  if (concepts.length === 0)
    return {
      ok: false,
      errors: [
        { code: "use.okf.bundle_invalid", message: "An OKF bundle must contain at least one concept document." },
      ],
    };
  if (concepts.length > limits.maxConcepts)
    return { ok: false, errors: [{ code: "use.okf.limit_exceeded", message: LIMIT_MESSAGE }] };
  concepts.sort((a, b) => byteCompare(a.path, b.path));
  diagnostics.sort(
    (a, b) => byteCompare(a.path, b.path) || byteCompare(a.target, b.target) || byteCompare(a.code, b.code),
  );
  locations.sort((a, b) => byteCompare(a.path, b.path) || byteCompare(a.target, b.target)); // index-aligned with diagnostics
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
    locations,
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
