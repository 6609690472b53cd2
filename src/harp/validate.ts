/**
 * Manifest validation that needs only the text of harp.json: strict JSON, the v1 schema (via ajv)
 * turned into `harp.*` diagnostics with a JSON Pointer and reason each (seed §17), and the
 * beyond-schema rules that can be decided lexically (argv paths, secrets, absolute and home paths).
 * Checks that need the package's files live in check.ts.
 */
import type { ErrorObject } from "ajv";
import { DiagnosticCollector } from "../diagnostics/collector.js";
import type { Diagnostic, Span } from "../diagnostics/diagnostic.js";
import { relativePathProblem } from "../fs/contained.js";
import { HARP_CODES, type HarpCode } from "./codes.js";
import { escapePointerToken, parseHarpJson, type JsonValue, type ParsedJson } from "./json.js";
import { isRuntimeName, RESERVED_FIELDS, RESERVED_KINDS, type HarpManifest } from "./manifest.js";
import { argPathProblem, findPath } from "./path-scan.js";
import { schemaErrors } from "./schema.js";
import { findSecret } from "./secret-scan.js";

export { argPathProblem } from "./path-scan.js";
export { looksLikeJwt } from "./secret-scan.js";

export const MANIFEST_FILE = "harp.json";

export interface ManifestValidation {
  /** The manifest when it passed every error-level check, else null. */
  readonly manifest: HarpManifest | null;
  readonly diagnostics: readonly Diagnostic[];
  readonly json: ParsedJson | null;
  /** The collector the package check goes on reporting into, under the same cap. */
  readonly reporter: ManifestReporter;
}

/**
 * Emits diagnostics for one manifest file, looking spans up by JSON Pointer. Past the one cap
 * (src/diagnostics/collector.ts) a finding is counted and nothing is built; `closed()` ends the
 * list with `harp.diagnostic_limit`.
 */
export class ManifestReporter extends DiagnosticCollector<typeof HARP_CODES> {
  constructor(
    readonly file: string,
    private readonly json: ParsedJson | null,
  ) {
    super(HARP_CODES);
  }

  /**
   * Where the values the secret scan flagged are, for the masked text code frames are drawn from
   * (src/harp/redact.ts). Kept past the cap too: a frame of any diagnostic on the line would show it.
   */
  readonly secretValues: Span[] = [];

  markSecretValue(pointer: string): void {
    const span = this.json?.spans.get(pointer);
    if (span !== undefined) this.secretValues.push(span);
  }

  /** The diagnostics, closed by the limit note when some were only counted. */
  closed(): Diagnostic[] {
    return this.closedWith("harp.diagnostic_limit", this.file);
  }

  /**
   * Where the caret goes: on the value when the value is what is wrong (a wrong type, an empty
   * string), on the member's key when the member itself is (unknown, reserved). A missing member
   * has no span of its own: the closest existing ancestor's key.
   */
  spanOf(pointer: string, on: "key" | "value" = "key"): Span | undefined {
    if (this.json === null) return undefined;
    if (on === "value") {
      const v = this.json.spans.get(pointer);
      if (v !== undefined) return v;
    }
    let p = pointer;
    for (;;) {
      const s = this.json.keySpans.get(p) ?? this.json.spans.get(p);
      if (s !== undefined) return s;
      if (p === "") return undefined;
      p = p.slice(0, p.lastIndexOf("/"));
    }
  }

  report(code: HarpCode, pointer: string | undefined, message: string, hint?: string, label?: string): void {
    if (!this.room) return this.omit(code);
    this.emit(code, message, {
      file: this.file,
      span: pointer === undefined ? undefined : this.spanOf(pointer, VALUE_CODES.has(code) ? "value" : "key"),
      pointer,
      hint,
      label,
    });
  }
}

/** Codes about a member's value: their caret goes on the value, not the key. */
const VALUE_CODES: ReadonlySet<string> = new Set([
  "harp.wrong_type",
  "harp.out_of_range",
  "harp.invalid_value",
  "harp.invalid_kind",
]);

/** Ajv's limit keywords in plain words ("must NOT have fewer than 1 characters" → "must not be empty"). */
function limitMessage(keyword: string, limit: number, value: unknown): { message: string; label: string } {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const length = typeof value === "string" ? Array.from(value).length : Array.isArray(value) ? value.length : undefined;
  switch (keyword) {
    case "minLength":
      return limit === 1
        ? { message: "must not be empty", label: "an empty string" }
        : {
            message: `must be at least ${plural(limit, "character")} long`,
            label: `${plural(length ?? 0, "character")}`,
          };
    case "maxLength":
      return {
        message: `must be at most ${plural(limit, "character")} long`,
        label: `${plural(length ?? 0, "character")}`,
      };
    case "minItems":
      return limit === 1
        ? { message: "must not be empty", label: "an empty list" }
        : { message: `must have at least ${plural(limit, "item")}`, label: `${plural(length ?? 0, "item")}` };
    case "maxItems":
      return { message: `must have at most ${plural(limit, "item")}`, label: `${plural(length ?? 0, "item")}` };
    case "minimum":
      return { message: `must be at least ${limit}, found ${JSON.stringify(value)}`, label: `below ${limit}` };
    default:
      return { message: `must be at most ${limit}, found ${JSON.stringify(value)}`, label: `above ${limit}` };
  }
}

export function validateManifestText(text: string, file: string = MANIFEST_FILE): ManifestValidation {
  const parsed = parseHarpJson(text);
  if (!parsed.ok) {
    const e = parsed.error;
    const code: HarpCode =
      e.kind === "duplicate_key"
        ? "harp.duplicate_key"
        : e.kind === "too_deep"
          ? "harp.json_too_deep"
          : "harp.json_syntax";
    const where = e.pointer !== undefined ? e.pointer : file;
    const r = new ManifestReporter(file, null);
    r.emit(code, `${where}: ${e.message}`, {
      file,
      span: e.span,
      pointer: e.pointer,
      hint:
        code === "harp.duplicate_key"
          ? "Keep one occurrence of the member; readers disagree on which duplicate wins."
          : "harp.json must be plain JSON (RFC 8259): no comments, no trailing commas, double-quoted strings.",
    });
    return { manifest: null, diagnostics: r.closed(), json: null, reporter: r };
  }
  const json = parsed.json;
  const r = new ManifestReporter(file, json);
  const value = json.value;

  if (!isObject(value)) {
    r.report(
      "harp.wrong_type",
      "",
      `${file} must contain a JSON object, not ${typeName(value)}`,
      "Start from the minimal manifest of HARP §7.2.",
    );
    return { manifest: null, diagnostics: r.closed(), json, reporter: r };
  }
  if (!("schemaVersion" in value)) {
    const looksStatic = "globals" in value;
    r.report(
      "harp.not_a_manifest",
      "",
      `${file} has no "schemaVersion", so it is not a HARP manifest${looksStatic ? " (it looks like a Harp static-site generator config)" : ""}`,
      'A HARP v1 manifest starts with "schemaVersion": 1 (HARP §7.2).',
    );
    return { manifest: null, diagnostics: r.closed(), json, reporter: r };
  }
  const sv = value["schemaVersion"];
  if (typeof sv === "number" && Number.isInteger(sv) && sv > 1) {
    // §12: a higher version is refused outright; validating it against v1 would be guessing.
    r.report(
      "harp.unsupported_schema_version",
      "/schemaVersion",
      `/schemaVersion: this host supports HARP schemaVersion 1 only, the manifest declares ${sv}`,
      "Use a host that supports this schemaVersion, or write a v1 manifest.",
    );
    return { manifest: null, diagnostics: r.closed(), json, reporter: r };
  }

  for (const err of schemaErrors(value)) {
    // Past the cap a schema error is counted, never worded (60,000 unknown members cost one walk).
    if (r.room) reportSchemaError(r, err, value);
    else r.omit(schemaErrorCode(err));
  }
  checkArgvLexically(r, value);
  scanStrings(r, value, "");

  const ok = !r.hasErrors();
  return { manifest: ok ? (value as unknown as HarpManifest) : null, diagnostics: r.closed(), json, reporter: r };
}

/** The code reportSchemaError gives an ajv error, for counting it past the cap (every one is an error). */
function schemaErrorCode(e: ErrorObject): HarpCode {
  switch (e.keyword) {
    case "required":
      return "harp.missing_field";
    case "additionalProperties":
      return "harp.unknown_field";
    case "type":
      return "harp.wrong_type";
    case "minLength":
    case "maxLength":
    case "minItems":
    case "maxItems":
    case "minimum":
    case "maximum":
      return "harp.out_of_range";
    default:
      return "harp.invalid_value";
  }
}

function reportSchemaError(r: ManifestReporter, e: ErrorObject, root: JsonValue): void {
  const at = e.instancePath;
  const params = e.params as Record<string, unknown>;
  const val = valueAt(root, at);
  const shown = shownUnlessSecret;
  switch (e.keyword) {
    case "required": {
      const name = String(params["missingProperty"]);
      const p = `${at}/${escapePointerToken(name)}`;
      r.report("harp.missing_field", p, `${p}: required member "${name}" is missing`, requiredHint(p));
      return;
    }
    case "additionalProperties": {
      const name = String(params["additionalProperty"]);
      const p = `${at}/${escapePointerToken(name)}`;
      if (at === "" && (RESERVED_FIELDS as readonly string[]).includes(name)) {
        r.report(
          "harp.reserved_field",
          p,
          `${p}: "${name}" is a reserved name, not a HARP v1 field; v1 rejects it like any unknown member`,
          name === "ready"
            ? 'Remove "ready"; v1 readiness is declared with "health": { "path": "/health" }.'
            : `Remove "${name}"; v1 has no operations. Agents use the UI, entrypoints.openapi or entrypoints.mcp.`,
        );
      } else {
        r.report(
          "harp.unknown_field",
          p,
          `${p}: unknown member "${name}" is not allowed here`,
          at === ""
            ? `Remove it, or move product-specific data under an "x-<vendor>" member (lowercase letters, digits, '-').`
            : "Remove it; this object allows only the members listed in HARP §7.7.",
        );
      }
      return;
    }
    case "const": {
      if (at === "/runtime/kind") return reportKind(r, val);
      if (at === "/schemaVersion") {
        r.report(
          "harp.invalid_value",
          at,
          `${at}: must be the integer 1, found ${shown(val)}`,
          'Write "schemaVersion": 1.',
        );
        return;
      }
      const reservedUi = at === "/entrypoints/ui/kind" && (val === "window" || val === "none");
      r.report(
        "harp.invalid_value",
        at,
        `${at}: must be ${shown(params["allowedValue"])}, found ${shown(val)}${reservedUi ? ` ("${String(val)}" is reserved, not v1)` : ""}`,
      );
      return;
    }
    case "enum": {
      const allowed = (params["allowedValues"] as unknown[]).map(shown).join(", ");
      r.report("harp.invalid_value", at, `${at}: must be one of ${allowed}, found ${shown(val)}`);
      return;
    }
    case "type":
      if (at === "/runtime/kind") return reportKind(r, val);
      r.report(
        "harp.wrong_type",
        at,
        `${at}: must be ${article(String(params["type"]))}, found ${typeName(val as JsonValue)}`,
      );
      return;
    case "pattern":
      r.report(
        "harp.invalid_value",
        at,
        `${at}: ${shown(val)} does not match the pattern ${String(params["pattern"])}`,
        patternHint(at),
      );
      return;
    case "minLength":
    case "maxLength":
    case "minItems":
    case "maxItems":
    case "minimum":
    case "maximum": {
      const { message, label } = limitMessage(e.keyword, Number(params["limit"]), val);
      r.report("harp.out_of_range", at, `${at}: ${message}`, undefined, label);
      return;
    }
    default:
      r.report("harp.invalid_value", at, `${at}: ${e.message ?? "is not valid"} (${e.keyword})`);
  }
}

function reportKind(r: ManifestReporter, kind: unknown): void {
  if (typeof kind === "string" && (RESERVED_KINDS as readonly string[]).includes(kind)) {
    r.report(
      "harp.unsupported_kind",
      "/runtime/kind",
      `/runtime/kind: "${kind}" is a reserved HARP kind that this v1 host does not support`,
      'A v1 package uses "runtime": { "kind": "http" }. Reserved kinds need a host that declares them.',
    );
    return;
  }
  r.report(
    "harp.invalid_kind",
    "/runtime/kind",
    `/runtime/kind: ${shownUnlessSecret(kind)} is not a registered HARP runtime kind`,
    'Use "http". Product-specific runtimes may not invent kinds; use an "x-<vendor>" member instead.',
  );
}

function requiredHint(pointer: string): string | undefined {
  const hints: Record<string, string> = {
    "/schemaVersion": 'Add "schemaVersion": 1.',
    "/id": 'Add a host-local id such as "notes" (lowercase letters, digits, "-").',
    "/runtime": 'Add "runtime": { "kind": "http" }.',
    "/start": 'Add "start": { "argv": ["node", "server.mjs"] }.',
    "/runtime/kind": 'Add "kind": "http".',
    "/start/argv": 'Add "argv", e.g. ["node", "server.mjs"] or ["./bin/app"].',
  };
  return hints[pointer];
}

function patternHint(pointer: string): string | undefined {
  if (pointer === "/id")
    return "An id is 1–64 lowercase letters, digits or '-', starting and ending with a letter or digit.";
  if (pointer.endsWith("/path")) return "A URL path starts with '/' and contains no whitespace.";
  if (pointer === "/entrypoints/openapi") return 'A package-relative path such as "openapi.json".';
  return undefined;
}

// ---------- start.argv (§7.3, §7.5) ----------

function checkArgvLexically(r: ManifestReporter, m: Record<string, JsonValue>): void {
  const start = m["start"];
  if (!isObject(start)) return;
  checkArgv(r, start["argv"], "/start/argv");
  const platforms = start["platforms"];
  if (isObject(platforms)) {
    for (const [k, v] of Object.entries(platforms)) {
      if (isObject(v)) checkArgv(r, v["argv"], `/start/platforms/${escapePointerToken(k)}/argv`);
    }
  }
  const eps = m["entrypoints"];
  if (isObject(eps) && typeof eps["openapi"] === "string") {
    const problem = relativePathProblem(stripDotSlash(eps["openapi"]));
    if (problem !== null) {
      r.report(
        "harp.openapi_path_invalid",
        "/entrypoints/openapi",
        `/entrypoints/openapi: ${problem}`,
        'Name a file inside the package, e.g. "openapi.json".',
      );
    }
  }
}

function checkArgv(r: ManifestReporter, argv: JsonValue | undefined, pointer: string): void {
  if (!Array.isArray(argv)) return;
  argv.forEach((arg, i) => {
    if (typeof arg !== "string" || arg === "") return;
    const p = `${pointer}/${i}`;
    if (i === 0) return checkArgv0(r, arg, p);
    const problem = argPathProblem(arg);
    if (problem !== null) {
      r.report(
        "harp.argv_path_escapes",
        p,
        `${p}: ${shownUnlessSecret(arg)} ${problem}`,
        "Path arguments must be relative to the package root and stay inside it.",
      );
    }
  });
}

function checkArgv0(r: ManifestReporter, arg: string, p: string): void {
  if (isRuntimeName(arg)) {
    if (!/^[A-Za-z0-9][A-Za-z0-9._+-]*$/.test(arg)) {
      r.report(
        "harp.runtime_name_invalid",
        p,
        `${p}: ${shownUnlessSecret(arg)} is neither a host runtime name nor a package path`,
        'Use a runtime name such as "node" or "python", or "./bin/app" for a bundled executable.',
      );
    }
    return;
  }
  const problem = executablePathProblem(arg);
  if (problem !== null) {
    r.report(
      "harp.executable_path_invalid",
      p,
      `${p}: ${shownUnlessSecret(arg)} ${problem}`,
      'Bundle the executable and name it relative to the package root, e.g. "./bin/app".',
    );
  }
}

/** Lexical problems of a package-executable argv[0] (§7.5.2), or null. */
export function executablePathProblem(arg: string): string | null {
  if (arg.startsWith("/") || /^[A-Za-z]:/.test(arg) || arg.startsWith("\\\\")) return "is an absolute path";
  if (arg.startsWith(".") && !arg.startsWith("./") && !arg.startsWith("../") && !arg.includes("/")) {
    return "starts with '.' but is not a './' path";
  }
  const rel = stripDotSlash(arg);
  const problem = relativePathProblem(rel);
  return problem === null ? null : problem.replace(/^the path /, "");
}

/** "./a/b" → "a/b"; repeated "./" prefixes are tolerated. */
export function stripDotSlash(p: string): string {
  let s = p;
  while (s.startsWith("./")) s = s.slice(2);
  return s;
}

// ---------- secrets, absolute paths, home directories (§9.4, §17) ----------

/** URL paths, not file-system paths: "/health" must not look absolute. */
const URL_PATH_POINTERS = new Set(["/health/path", "/entrypoints/ui/path", "/entrypoints/mcp/path"]);

const SECRET_HINT =
  "Do not ship secrets in harp.json: collect them from the user on first run and keep them in APP_DATA_DIR (HARP §9.4).";

function scanStrings(r: ManifestReporter, v: JsonValue, pointer: string, memberName?: string): void {
  if (typeof v === "string") return scanString(r, v, pointer, memberName);
  if (Array.isArray(v)) return v.forEach((x, i) => scanStrings(r, x, `${pointer}/${i}`, memberName));
  if (isObject(v)) for (const [k, x] of Object.entries(v)) scanStrings(r, x, `${pointer}/${escapePointerToken(k)}`, k);
}

/** The message names the kind of secret and the member, never the value (src/harp/secret-scan.ts). */
function scanString(r: ManifestReporter, s: string, pointer: string, memberName: string | undefined): void {
  const secret = findSecret(s, memberName);
  if (secret !== null) {
    r.markSecretValue(pointer);
    const message =
      secret.by === "name"
        ? `${pointer}: member "${memberName}" holds what looks like ${secret.what}`
        : secret.by === "assignment"
          ? `${pointer}: the value assigns what looks like ${secret.what}`
          : `${pointer}: the value looks like ${secret.what}`;
    r.report("harp.secret_in_manifest", pointer, message, SECRET_HINT);
    return;
  }
  if (URL_PATH_POINTERS.has(pointer)) return;
  // The reserved "ready" member is already an error (harp.reserved_field); its paths are URL paths.
  if (pointer.startsWith("/ready/")) return;
  // argv entries already get a precise path diagnostic from checkArgv.
  if (pointer.includes("/argv/")) return;
  const path = findPath(s);
  if (path === "home_directory") {
    r.report(
      "harp.home_directory",
      pointer,
      `${pointer}: the value refers to a user's home directory`,
      "The host decides where the app lives; use paths relative to the package or APP_DATA_DIR at run time.",
    );
  } else if (path === "absolute_path") {
    r.report(
      "harp.absolute_path",
      pointer,
      `${pointer}: the value contains an absolute file-system path`,
      "Use package-relative paths; mutable state belongs in APP_DATA_DIR, read from the environment at run time.",
    );
  }
}

// ---------- helpers ----------

/** A value quoted for a message, unless it looks like a secret: messages never echo one (§9.4). */
function shownUnlessSecret(v: unknown): string {
  return typeof v === "string" && findSecret(v) !== null
    ? "the value (not shown: it looks like a secret)"
    : JSON.stringify(v);
}

export function isObject(v: JsonValue | undefined): v is { [key: string]: JsonValue } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function typeName(v: JsonValue | undefined): string {
  if (v === undefined) return "nothing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  if (typeof v === "number") return Number.isInteger(v) ? "an integer" : "a number";
  return `a ${typeof v}`;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function valueAt(root: JsonValue, pointer: string): JsonValue | undefined {
  if (pointer === "") return root;
  let cur: JsonValue | undefined = root;
  for (const raw of pointer.slice(1).split("/")) {
    const tok = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(cur)) cur = cur[Number(tok)];
    else if (isObject(cur)) cur = Object.hasOwn(cur, tok) ? cur[tok] : undefined;
    else return undefined;
  }
  return cur;
}
