/**
 * Schema v3 validation of `a3s-use-extension.acl` (reference §2) and the typed model of §2.11.
 *
 * The reference stops at the first failure. We keep going, but every check runs in the reference's
 * order, so the first diagnostic is the one A3S Use reports, in its words (`[code] message`).
 * Later diagnostics are extras the reference would only show after the first is fixed.
 */
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { A3S_CODES, type A3sCode } from "../codes.js";
import { A3S_DIAGNOSTIC_LIMIT, Omitted } from "../diagnostic-limit.js";
import { DiagnosticCollector } from "../../diagnostics/collector.js";
import type { AclAttribute, AclBlock, AclRange, AclValue } from "../acl/ast.js";
import { referenceMessage } from "../messages.js";
import { validateOkfContract, type OkfBundleContract } from "../okf/contract.js";
import { componentKey, extension, fileName, rejectsRelativePath } from "./rust-path.js";
import { formatVersionReq, parseVersion, parseVersionReq, reqMatches } from "../resolve/semver.js";
import type { TextPositions } from "../../diagnostics/text-positions.js";

export const MANIFEST_FILE = "a3s-use-extension.acl";
const INVALID = "use.extension.manifest_invalid";

export type SurfaceKind = "tool" | "mcp" | "okf" | "flow" | "skill" | "ui";
export const SURFACE_KINDS: readonly SurfaceKind[] = ["tool", "mcp", "okf", "flow", "skill", "ui"];
const KIND_LABEL: Record<SurfaceKind, string> = {
  tool: "Tool",
  mcp: "MCP",
  okf: "OKF",
  flow: "Flow",
  skill: "Skill",
  ui: "UI",
};

export type ToolWorkload =
  | {
      task: {
        source: { executable: { executable: string } } | { release: { release: string } };
        command: string;
        jsonOutput: boolean;
        interactive: boolean;
        timeoutMs: number;
      };
    }
  | { service: { release: string; basePath: string; contract?: string } };

export interface ToolSurface {
  id: string;
  activation: "eager" | "lazy";
  optional: boolean;
  workload: ToolWorkload;
}
export interface McpSurface {
  id: string;
  activation: "eager" | "lazy";
  optional: boolean;
  launch: { stdio: { executable: string; args: string[] } } | { "streamable-http": { release: string } };
}
export interface OkfSurface {
  id: string;
  bundle: OkfBundleContract;
  optional: boolean;
}
export interface FlowSurface {
  id: string;
  engine: "a3s-flow";
  runtime: "native-ts";
  source: string;
  exportName: string;
  requiresTools: string[];
  requiresMcp: string[];
  requiresOkf: string[];
  optional: boolean;
}
export interface SkillSurface {
  id: string;
  path: string;
  requiresTools: string[];
  requiresMcp: string[];
  requiresOkf: string[];
  requiresFlows: string[];
  optional: boolean;
}
export interface UiSurface {
  id: string;
  title: string;
  description: string;
  icon: string;
  order: number;
  entry: string;
  styles: string[];
  scripts: string[];
  skill?: string;
  bindTools: string[];
  bindMcp: string[];
  bindFlows: string[];
  optional: boolean;
}

export interface PackageDependency {
  packageId: string;
  versionRequirement: string;
}

/** §2.11 shape; empty kind lists and dependencies are omitted as serde does. */
export interface ExtensionManifest {
  schemaVersion: number;
  packageId: string;
  version: string;
  route: string;
  requiresUse: string;
  dependencies?: PackageDependency[];
  repository: { url: string; revision?: string };
  actions: string[];
  tools?: ToolSurface[];
  mcpServers?: McpSurface[];
  okf?: OkfSurface[];
  flows?: FlowSurface[];
  skills?: SkillSurface[];
  ui?: UiSurface[];
}

export interface ManifestValidation {
  readonly manifest: ExtensionManifest | null;
  readonly diagnostics: Diagnostic[];
  /** Findings past the diagnostic limit, counted only. */
  readonly omitted: Omitted;
}

const SEGMENT = /^[a-z][a-z0-9-]*$/;
const COMMAND = /^[a-z][a-z0-9-]{0,127}$/;
const EXPORT = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const REVISION = /^([0-9a-f]{40}|[0-9a-f]{64})$/;
const RESERVED_ROUTES = new Set([
  "browser",
  "box",
  "capability",
  "ocr",
  "capabilities",
  "component",
  "registry",
  "extension",
  "doctor",
  "mcp",
  "help",
  "version",
]);
const ACTIONS = new Set(["read", "navigate", "mutate", "submit", "download", "execute"]);
const MAX_SURFACES_PER_KIND = 64;
const MAX_REFERENCES = 64;
const MAX_DEPENDENCIES = 128;

export function isSegment(s: string): boolean {
  return SEGMENT.test(s);
}

/** Core-crate segment: the same syntax, 1..=63 bytes. */
export function isCoreSegment(s: string): boolean {
  return SEGMENT.test(s) && s.length <= 63;
}

export function isPackageId(s: string, core: boolean): boolean {
  const parts = s.split("/");
  return parts.length === 2 && parts.every((p) => (core ? isCoreSegment(p) : isSegment(p)));
}

export function isHttpBasePath(p: string): boolean {
  if (!p.startsWith("/") || p.length > 1024 || p.includes("//")) return false;
  for (let i = 0; i < p.length; i++) {
    const c = p.charCodeAt(i);
    if (c < 0x21 || c > 0x7e || p[i] === "?" || p[i] === "#" || p[i] === "\\") return false;
  }
  return !p.split("/").some((s) => s === "." || s === "..");
}

/**
 * Words schema findings in the reference's terms and locates them in the manifest; the collecting
 * and the cap are the one collector's (past the cap nothing is worded or located).
 */
class Checker {
  private readonly found = new DiagnosticCollector(A3S_CODES, A3S_DIAGNOSTIC_LIMIT);

  constructor(
    private readonly file: string,
    private readonly index: TextPositions,
  ) {}

  get diagnostics(): Diagnostic[] {
    return this.found.diagnostics.slice();
  }

  /** Findings past the diagnostic limit: counted, never built (diagnostic-limit.ts). */
  get omitted(): Omitted {
    const o = new Omitted();
    o.merge(this.found.omitted);
    return o;
  }

  error(code: A3sCode, wording: string, range: AclRange | undefined, referenceCode = INVALID, hint?: string): void {
    if (!this.found.room) return this.found.omit(code);
    this.found.emit(code, referenceMessage(referenceCode, wording), {
      file: this.file,
      span: range === undefined ? undefined : this.index.span(range.start, range.end),
      hint,
    });
  }

  get count(): number {
    return this.found.total;
  }
}

/** Typed attribute access with the reference's messages (§2.4). */
class Attrs {
  constructor(
    private readonly c: Checker,
    private readonly block: AclBlock,
  ) {}

  get(name: string): AclAttribute | undefined {
    return this.block.attributes.get(name);
  }

  has(name: string): boolean {
    return this.block.attributes.has(name);
  }

  private typeError(kind: string, name: string, at: AclAttribute | undefined): void {
    this.c.error(
      "a3s.manifest.attribute_type",
      `'${this.block.name}' requires ${kind} attribute '${name}'.`,
      at?.value ?? this.block.nameRange,
    );
  }

  string(name: string, required: boolean): string | undefined {
    const a = this.get(name);
    if (a === undefined) {
      if (required) this.typeError("string", name, undefined);
      return undefined;
    }
    if (a.value.kind !== "string") {
      this.typeError("string", name, a);
      return undefined;
    }
    return a.value.value;
  }

  bool(name: string): boolean | undefined {
    const a = this.get(name);
    if (a === undefined) return undefined;
    if (a.value.kind !== "bool") {
      this.typeError("boolean", name, a);
      return undefined;
    }
    return a.value.value;
  }

  list(name: string, required: boolean): string[] | undefined {
    const a = this.get(name);
    if (a === undefined) {
      if (required) this.typeError("list", name, undefined);
      return undefined;
    }
    if (a.value.kind !== "list") {
      this.typeError("list", name, a);
      return undefined;
    }
    const out: string[] = [];
    for (const item of a.value.items) {
      if (item.kind !== "string") {
        this.c.error("a3s.manifest.attribute_type", `'${name}' accepts only strings.`, item);
        return undefined;
      }
      out.push(item.value);
    }
    return out;
  }

  private number(name: string, required: boolean): { value: number; at: AclValue } | undefined {
    const a = this.get(name);
    if (a === undefined) {
      if (required) this.typeError("numeric", name, undefined);
      return undefined;
    }
    if (a.value.kind !== "number") {
      this.typeError("numeric", name, a);
      return undefined;
    }
    return { value: a.value.value, at: a.value };
  }

  u64(name: string, required: boolean): number | undefined {
    const n = this.number(name, required);
    if (n === undefined) return undefined;
    if (!Number.isFinite(n.value) || !Number.isInteger(n.value) || n.value < 0 || n.value > 2 ** 64) {
      this.c.error(
        "a3s.manifest.attribute_type",
        `'${this.block.name}' attribute '${name}' must be a non-negative integer.`,
        n.at,
      );
      return undefined;
    }
    return n.value;
  }

  i32(name: string): number | undefined {
    const n = this.number(name, false);
    if (n === undefined) return undefined;
    if (!Number.isFinite(n.value) || !Number.isInteger(n.value) || n.value < -(2 ** 31) || n.value > 2 ** 31 - 1) {
      this.c.error(
        "a3s.manifest.attribute_type",
        `'${this.block.name}' attribute '${name}' must be a 32-bit integer.`,
        n.at,
      );
      return undefined;
    }
    return n.value;
  }

  /** A package-relative path (§2.8); the reference code is `use.extension.path_escape`. */
  path(name: string, required: boolean): string | undefined {
    const p = this.string(name, required);
    if (p === undefined) return undefined;
    if (rejectsRelativePath(p)) {
      this.c.error(
        "a3s.manifest.path_escape",
        `Surface path '${p}' is not package-relative.`,
        this.get(name)?.value,
        "use.extension.path_escape",
      );
      return undefined;
    }
    return p;
  }

  valueRange(name: string): AclRange {
    return this.get(name)?.value ?? this.block.nameRange;
  }

  /** First unknown attribute in source order (the reference's HashMap order is unspecified). */
  unknown(allowed: readonly string[]): void {
    for (const [k, a] of this.block.attributes) {
      if (!allowed.includes(k))
        this.c.error("a3s.manifest.unknown_attribute", `Unknown '${this.block.name}' attribute '${k}'.`, a.nameRange);
    }
  }

  forbidden(names: readonly string[]): void {
    for (const n of names) {
      const a = this.get(n);
      if (a !== undefined) {
        this.c.error(
          "a3s.manifest.surface_contract",
          `'${this.block.name}' attribute '${n}' is not valid for the selected surface contract.`,
          a.nameRange,
        );
      }
    }
  }

  activation(fallback: "eager" | "lazy"): "eager" | "lazy" {
    const v = this.string("activation", false);
    if (v === undefined) return fallback;
    if (v !== "eager" && v !== "lazy") {
      this.c.error(
        "a3s.manifest.activation",
        `'${this.block.name}' activation '${v}' is invalid.`,
        this.valueRange("activation"),
      );
      return fallback;
    }
    return v;
  }

  references(name: string, kind: SurfaceKind): string[] {
    const items = this.list(name, false);
    if (items === undefined) return [];
    if (items.length > MAX_REFERENCES) {
      this.c.error(
        "a3s.manifest.reference_list",
        `'${name}' accepts at most ${MAX_REFERENCES} ${KIND_LABEL[kind]} references.`,
        this.valueRange(name),
      );
      return items;
    }
    const seen = new Set<string>();
    for (const id of items) {
      if (!isSegment(id) || seen.has(id)) {
        this.c.error(
          "a3s.manifest.reference_list",
          `'${name}' contains an invalid or duplicate ${KIND_LABEL[kind]} surface ID.`,
          this.valueRange(name),
        );
        break;
      }
      seen.add(id);
    }
    return items;
  }
}

interface Surfaces {
  tool: { s: ToolSurface; at: AclRange }[];
  mcp: { s: McpSurface; at: AclRange }[];
  okf: { s: OkfSurface; at: AclRange }[];
  flow: { s: FlowSurface; at: AclRange }[];
  skill: { s: SkillSurface; at: AclRange }[];
  ui: { s: UiSurface; at: AclRange }[];
}

export function validateManifest(blocks: readonly AclBlock[], file: string, index: TextPositions): ManifestValidation {
  const c = new Checker(file, index);
  const ext = blocks.find((b) => b.name === "extension");
  if (blocks.length !== 1 || ext === undefined) {
    const at = blocks.find((b) => b !== ext)?.nameRange ?? { start: 0, end: 0 };
    c.error("a3s.manifest.document", "The manifest must contain only one extension block.", at);
    if (ext === undefined) return { manifest: null, diagnostics: c.diagnostics, omitted: c.omitted };
  }
  const a = new Attrs(c, ext);
  a.unknown(["schema_version", "version", "route", "requires_use", "actions"]);

  let packageId: string | undefined;
  if (ext.labels.length !== 1) {
    c.error("a3s.manifest.package_id", "The extension block requires a package ID label.", ext.nameRange);
  } else if (!isPackageId(ext.labels[0]!.value, false)) {
    c.error(
      "a3s.manifest.package_id",
      "Package IDs must be '<publisher>/<name>' lowercase identifiers.",
      ext.labels[0],
    );
  } else {
    packageId = ext.labels[0]!.value;
  }

  const schemaAttr = a.get("schema_version");
  let schemaVersion: number | undefined;
  if (schemaAttr === undefined || schemaAttr.value.kind !== "number") {
    c.error(
      "a3s.manifest.attribute_type",
      "'extension' requires numeric attribute 'schema_version'.",
      schemaAttr?.value ?? ext.nameRange,
    );
  } else {
    const n = schemaAttr.value.value;
    if (!Number.isFinite(n) || !Number.isInteger(n) || n < 0 || n > 2 ** 32 - 1) {
      c.error(
        "a3s.manifest.schema_version",
        "Extension schema_version must be a non-negative integer.",
        schemaAttr.value,
      );
    } else if (n !== 3) {
      c.error(
        "a3s.manifest.schema_version",
        `Extension schema version ${n} is no longer supported; rebuild the package for extension schema version 3.`,
        schemaAttr.value,
        INVALID,
        "reference wording approximated: A3S Use's message names schema version 3 and asks for a rebuild",
      );
    } else {
      schemaVersion = 3;
    }
  }

  const versionText = a.string("version", true);
  let version: string | undefined;
  if (versionText !== undefined) {
    const v = parseVersion(versionText);
    if (!v.ok) c.error("a3s.manifest.version", `Invalid extension version: ${v.error}`, a.valueRange("version"));
    else version = versionText;
  }

  const routeText = a.string("route", true);
  let route: string | undefined;
  if (routeText !== undefined) {
    if (!isSegment(routeText) || RESERVED_ROUTES.has(routeText)) {
      c.error("a3s.manifest.route", `Extension route '${routeText}' is invalid or reserved.`, a.valueRange("route"));
    } else route = routeText;
  }

  const actions = a.list("actions", true);
  if (actions !== undefined) {
    const seen = new Set<string>();
    for (const act of actions) {
      if (seen.has(act)) {
        c.error("a3s.manifest.actions", "Action classes must be unique.", a.valueRange("actions"));
        break;
      }
      seen.add(act);
      if (!ACTIONS.has(act)) {
        c.error("a3s.manifest.actions", `Unknown action class '${act}'.`, a.valueRange("actions"));
        break;
      }
    }
  }

  const surfaces: Surfaces = { tool: [], mcp: [], okf: [], flow: [], skill: [], ui: [] };
  const dependencies: { d: PackageDependency; at: AclRange }[] = [];
  let repository: { url: string; revision?: string } | undefined;
  let repositorySeen = false;
  for (const b of ext.blocks) {
    switch (b.name) {
      case "tool":
      case "mcp":
      case "okf":
      case "flow":
      case "skill":
      case "ui":
        surfaceBlock(c, b, b.name, surfaces);
        break;
      case "dependency": {
        const d = dependencyBlock(c, b);
        if (d !== undefined) dependencies.push({ d, at: b.nameRange });
        break;
      }
      case "repository":
        if (repositorySeen) {
          c.error("a3s.manifest.repository", "Duplicate 'repository' surface.", b.nameRange);
          break;
        }
        repositorySeen = true;
        repository = repositoryBlock(c, b);
        break;
      default:
        c.error("a3s.manifest.unknown_surface", `Unknown extension surface '${b.name}'.`, b.nameRange);
    }
  }

  if (SURFACE_KINDS.every((k) => surfaces[k].length === 0)) {
    c.error(
      "a3s.manifest.no_surfaces",
      "A schema version 3 extension must declare Tool, MCP, OKF, Flow, Skill, and/or UI.",
      ext.nameRange,
    );
  }
  crossSurface(c, surfaces);

  // Dependencies: sorted by package ID; then duplicates, self-dependency and the set bound.
  dependencies.sort((x, y) => byteCompare(x.d.packageId, y.d.packageId));
  for (let i = 1; i < dependencies.length; i++) {
    if (dependencies[i]!.d.packageId === dependencies[i - 1]!.d.packageId) {
      c.error(
        "a3s.manifest.dependency",
        "Package dependencies must be sorted and unique by package ID.",
        dependencies[i]!.at,
      );
      break;
    }
  }
  if (packageId !== undefined && dependencies.some((d) => d.d.packageId === packageId)) {
    c.error(
      "a3s.manifest.dependency",
      "A cognitive package cannot depend on itself.",
      dependencies.find((d) => d.d.packageId === packageId)!.at,
    );
  }
  if (dependencies.length > MAX_DEPENDENCIES || (packageId !== undefined && !isPackageId(packageId, true))) {
    c.error(
      "a3s.manifest.dependency",
      "Invalid package dependency set: The cognitive-package dependency set exceeds its identity or item bound.",
      packageId !== undefined && !isPackageId(packageId, true) ? ext.labels[0] : ext.nameRange,
      INVALID,
      "package ID segments are limited to 63 bytes and a package to 128 dependencies",
    );
  }

  const requiresUseAttr = a.get("requires_use");
  let requiresUse: string | undefined;
  if (requiresUseAttr === undefined) {
    c.error("a3s.manifest.requires_use", "Cognitive-package manifests require 'requires_use'.", ext.nameRange);
  } else if (requiresUseAttr.value.kind !== "string") {
    c.error(
      "a3s.manifest.attribute_type",
      "'extension' requires string attribute 'requires_use'.",
      requiresUseAttr.value,
    );
  } else {
    const text = requiresUseAttr.value.value;
    const req = parseVersionReq(text);
    if (!req.ok) {
      c.error(
        "a3s.manifest.requires_use",
        `Invalid A3S Use compatibility requirement '${text}': ${req.error}`,
        requiresUseAttr.value,
      );
    } else {
      requiresUse = text;
    }
  }
  if (!repositorySeen) {
    c.error("a3s.manifest.repository", "Cognitive-package manifests require a repository block.", ext.nameRange);
  }
  if (requiresUse !== undefined) {
    const req = parseVersionReq(requiresUse);
    const v030 = parseVersion("0.3.0");
    const v021 = parseVersion("0.2.1");
    if (req.ok && v030.ok && v021.ok && (!reqMatches(req.value, v030.value) || reqMatches(req.value, v021.value))) {
      c.error(
        "a3s.manifest.requires_use",
        "Schema version 3 must require A3S Use 0.3 and exclude pre-0.3 hosts.",
        requiresUseAttr!.value,
      );
    }
  }

  if (
    c.count > 0 ||
    packageId === undefined ||
    schemaVersion === undefined ||
    version === undefined ||
    route === undefined ||
    actions === undefined ||
    requiresUse === undefined ||
    repository === undefined
  ) {
    return { manifest: null, diagnostics: c.diagnostics, omitted: c.omitted };
  }
  const m: ExtensionManifest = { schemaVersion, packageId, version, route, requiresUse, repository, actions };
  if (dependencies.length > 0) m.dependencies = dependencies.map((d) => d.d);
  if (surfaces.tool.length > 0) m.tools = surfaces.tool.map((x) => x.s);
  if (surfaces.mcp.length > 0) m.mcpServers = surfaces.mcp.map((x) => x.s);
  if (surfaces.okf.length > 0) m.okf = surfaces.okf.map((x) => x.s);
  if (surfaces.flow.length > 0) m.flows = surfaces.flow.map((x) => x.s);
  if (surfaces.skill.length > 0) m.skills = surfaces.skill.map((x) => x.s);
  if (surfaces.ui.length > 0) m.ui = surfaces.ui.map((x) => x.s);
  return { manifest: m, diagnostics: c.diagnostics, omitted: c.omitted };
}

export function byteCompare(a: string, b: string): number {
  const enc = new TextEncoder();
  const x = enc.encode(a);
  const y = enc.encode(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

const ALLOWED: Record<SurfaceKind, readonly string[]> = {
  tool: [
    "workload",
    "interface",
    "executable",
    "release",
    "command",
    "json_output",
    "interactive",
    "timeout_ms",
    "base_path",
    "contract",
    "activation",
    "optional",
  ],
  mcp: ["transport", "executable", "args", "release", "activation", "optional"],
  okf: [
    "format_version",
    "root",
    "content_digest",
    "concept_count",
    "file_count",
    "expanded_bytes",
    "max_files",
    "max_concepts",
    "max_expanded_bytes",
    "max_document_bytes",
    "max_links_per_document",
    "optional",
  ],
  flow: ["engine", "runtime", "source", "export", "requires_tool", "requires_mcp", "requires_okf", "optional"],
  skill: ["path", "requires_tool", "requires_mcp", "requires_okf", "requires_flow", "optional"],
  ui: [
    "title",
    "description",
    "icon",
    "order",
    "entry",
    "styles",
    "scripts",
    "skill",
    "bind_tool",
    "bind_mcp",
    "bind_flow",
    "optional",
  ],
};

function surfaceBlock(c: Checker, b: AclBlock, kind: SurfaceKind, out: Surfaces): void {
  const label = KIND_LABEL[kind];
  if (b.labels.length !== 1 || b.blocks.length > 0) {
    c.error(
      "a3s.manifest.surface_label",
      `A schema version 3 ${label} surface requires one ID label and no nested blocks.`,
      b.nameRange,
    );
    return;
  }
  const id = b.labels[0]!.value;
  if (!isSegment(id)) {
    c.error("a3s.manifest.surface_id", `${label} surface ID '${id}' is invalid.`, b.labels[0]);
    return;
  }
  const a = new Attrs(c, b);
  const before = c.count;
  a.unknown(ALLOWED[kind]);
  const at = b.labels[0]!;
  switch (kind) {
    case "tool": {
      const s = toolSurface(c, a, id);
      if (s !== undefined && c.count === before) out.tool.push({ s, at });
      break;
    }
    case "mcp": {
      const s = mcpSurface(c, a, id);
      if (s !== undefined && c.count === before) out.mcp.push({ s, at });
      break;
    }
    case "okf": {
      const s = okfSurface(c, a, id);
      if (s !== undefined && c.count === before) out.okf.push({ s, at });
      break;
    }
    case "flow": {
      const s = flowSurface(c, a, id);
      if (c.count === before) out.flow.push({ s, at });
      break;
    }
    case "skill": {
      const s = skillSurface(c, a, id);
      if (c.count === before) out.skill.push({ s, at });
      break;
    }
    case "ui": {
      const s = uiSurface(c, a, id);
      if (s !== undefined && c.count === before) out.ui.push({ s, at });
      break;
    }
  }
}

function toolSurface(c: Checker, a: Attrs, id: string): ToolSurface | undefined {
  const workload = a.string("workload", true);
  const iface = a.string("interface", true);
  const optional = a.bool("optional") ?? false;
  if (workload === undefined || iface === undefined) return undefined;
  const pair = `${workload}/${iface}`;
  if (pair === "task/cli") {
    a.forbidden(["base_path", "contract"]);
    const hasExec = a.has("executable");
    const hasRelease = a.has("release");
    let source: { executable: { executable: string } } | { release: { release: string } } | undefined;
    if (hasExec === hasRelease) {
      c.error(
        "a3s.manifest.tool",
        `Tool Task '${id}' must declare exactly one of 'executable' or 'release'.`,
        a.valueRange(hasExec ? "release" : "workload"),
      );
    } else if (hasExec) {
      const p = a.path("executable", true);
      if (p !== undefined) source = { executable: { executable: p } };
    } else {
      const p = a.path("release", true);
      if (p !== undefined) source = { release: { release: p } };
    }
    const command = a.string("command", true);
    if (command !== undefined && !COMMAND.test(command)) {
      c.error("a3s.manifest.tool", `Tool Task '${id}' command '${command}' is invalid.`, a.valueRange("command"));
    }
    const interactive = a.bool("interactive") ?? false;
    if (interactive)
      c.error(
        "a3s.manifest.tool",
        "Tool Tasks must be non-interactive in extension schema version 3.",
        a.valueRange("interactive"),
      );
    const timeout = a.u64("timeout_ms", false) ?? 120000;
    if (timeout < 1 || timeout > 3600000) {
      c.error(
        "a3s.manifest.tool",
        `Tool Task '${id}' timeout_ms must be between 1 and 3600000.`,
        a.valueRange("timeout_ms"),
      );
    }
    const activation = a.activation("lazy");
    const jsonOutput = a.bool("json_output") ?? false;
    if (source === undefined || command === undefined) return undefined;
    return {
      id,
      activation,
      optional,
      workload: { task: { source, command, jsonOutput, interactive, timeoutMs: timeout } },
    };
  }
  if (pair === "service/http") {
    a.forbidden(["executable", "command", "json_output", "interactive", "timeout_ms"]);
    const release = a.path("release", true);
    const basePath = a.string("base_path", true);
    if (basePath !== undefined && !isHttpBasePath(basePath)) {
      c.error(
        "a3s.manifest.tool",
        `Tool Service '${id}' base_path '${basePath}' is invalid.`,
        a.valueRange("base_path"),
      );
    }
    const contract = a.path("contract", false);
    if (contract !== undefined && !["json", "yaml", "yml"].includes(extension(contract) ?? "")) {
      c.error("a3s.manifest.tool", `Tool Service '${id}' contract must be JSON or YAML.`, a.valueRange("contract"));
    }
    const activation = a.activation("eager");
    if (release === undefined || basePath === undefined) return undefined;
    const service: { release: string; basePath: string; contract?: string } = { release, basePath };
    if (contract !== undefined) service.contract = contract;
    return { id, activation, optional, workload: { service } };
  }
  c.error(
    "a3s.manifest.tool",
    `Tool '${id}' must use workload/interface 'task/cli' or 'service/http'.`,
    a.valueRange("interface"),
  );
  return undefined;
}

function mcpSurface(c: Checker, a: Attrs, id: string): McpSurface | undefined {
  const transport = a.string("transport", true);
  const optional = a.bool("optional") ?? false;
  if (transport === undefined) return undefined;
  if (transport === "stdio") {
    a.forbidden(["release"]);
    const executable = a.path("executable", true);
    const args = a.list("args", false) ?? [];
    const activation = a.activation("lazy");
    if (executable === undefined) return undefined;
    return { id, activation, optional, launch: { stdio: { executable, args } } };
  }
  if (transport === "streamable-http") {
    a.forbidden(["executable", "args"]);
    const release = a.path("release", true);
    const activation = a.activation("eager");
    if (release === undefined) return undefined;
    return { id, activation, optional, launch: { "streamable-http": { release } } };
  }
  c.error(
    "a3s.manifest.mcp",
    `MCP surface '${id}' transport '${transport}' is unsupported.`,
    a.valueRange("transport"),
  );
  return undefined;
}

function okfSurface(c: Checker, a: Attrs, id: string): OkfSurface | undefined {
  const format = a.string("format_version", true);
  if (format !== undefined && format !== "0.2") {
    c.error(
      "a3s.manifest.okf",
      `OKF surface '${id}' format_version '${format}' is unsupported.`,
      a.valueRange("format_version"),
    );
  }
  const root = a.string("root", true);
  const digest = a.string("content_digest", true);
  const names = [
    "concept_count",
    "file_count",
    "expanded_bytes",
    "max_files",
    "max_concepts",
    "max_expanded_bytes",
    "max_document_bytes",
    "max_links_per_document",
  ] as const;
  const n: Partial<Record<(typeof names)[number], number>> = {};
  for (const name of names) n[name] = a.u64(name, true);
  if (format !== "0.2" || root === undefined || digest === undefined || names.some((k) => n[k] === undefined)) {
    a.bool("optional");
    return undefined;
  }
  const bundle: OkfBundleContract = {
    schema: "a3s.use.okf-bundle.v1",
    formatVersion: "0.2",
    root,
    contentDigest: digest,
    conceptCount: n.concept_count!,
    fileCount: n.file_count!,
    expandedBytes: n.expanded_bytes!,
    limits: {
      maxFiles: n.max_files!,
      maxConcepts: n.max_concepts!,
      maxExpandedBytes: n.max_expanded_bytes!,
      maxDocumentBytes: n.max_document_bytes!,
      maxLinksPerDocument: n.max_links_per_document!,
    },
  };
  const problem = validateOkfContract(bundle);
  if (problem !== null) {
    c.error(
      "a3s.manifest.okf",
      `OKF surface '${id}' has an invalid bundle contract: ${problem.message}`,
      a.valueRange(problem.field === "root" ? "root" : problem.field === "evidence" ? "content_digest" : "max_files"),
    );
  }
  const optional = a.bool("optional") ?? false;
  return problem === null ? { id, bundle, optional } : undefined;
}

function flowSurface(c: Checker, a: Attrs, id: string): FlowSurface {
  const engine = a.string("engine", true);
  if (engine !== undefined && engine !== "a3s-flow")
    c.error("a3s.manifest.flow", `Flow surface '${id}' engine '${engine}' is unsupported.`, a.valueRange("engine"));
  const runtime = a.string("runtime", true);
  if (runtime !== undefined && runtime !== "native-ts")
    c.error("a3s.manifest.flow", `Flow surface '${id}' runtime '${runtime}' is unsupported.`, a.valueRange("runtime"));
  const source = a.path("source", true);
  if (source !== undefined && extension(source) !== "ts")
    c.error("a3s.manifest.flow", `Flow surface '${id}' source must be a TypeScript .ts file.`, a.valueRange("source"));
  const exportName = a.string("export", true);
  if (exportName !== undefined && !EXPORT.test(exportName)) {
    c.error(
      "a3s.manifest.flow",
      `Flow surface '${id}' export must be a portable TypeScript identifier.`,
      a.valueRange("export"),
    );
  }
  const requiresTools = a.references("requires_tool", "tool");
  const requiresMcp = a.references("requires_mcp", "mcp");
  const requiresOkf = a.references("requires_okf", "okf");
  const optional = a.bool("optional") ?? false;
  return {
    id,
    engine: "a3s-flow",
    runtime: "native-ts",
    source: source ?? "",
    exportName: exportName ?? "",
    requiresTools,
    requiresMcp,
    requiresOkf,
    optional,
  };
}

function skillSurface(c: Checker, a: Attrs, id: string): SkillSurface {
  const path = a.path("path", true);
  if (path !== undefined && fileName(path) !== "SKILL.md")
    c.error("a3s.manifest.skill", `Skill surface '${id}' must point to SKILL.md.`, a.valueRange("path"));
  const requiresTools = a.references("requires_tool", "tool");
  const requiresMcp = a.references("requires_mcp", "mcp");
  const requiresOkf = a.references("requires_okf", "okf");
  const requiresFlows = a.references("requires_flow", "flow");
  const optional = a.bool("optional") ?? false;
  return { id, path: path ?? "", requiresTools, requiresMcp, requiresOkf, requiresFlows, optional };
}

function uiSurface(c: Checker, a: Attrs, id: string): UiSurface | undefined {
  const titleRaw = a.string("title", false);
  let title = id;
  if (titleRaw !== undefined) {
    const t = titleRaw.trim();
    const n = [...t].length;
    if (n < 1 || n > 64)
      c.error("a3s.manifest.ui", "UI title must contain between 1 and 64 characters.", a.valueRange("title"));
    title = t;
  }
  const descRaw = a.string("description", false);
  let description = "";
  if (descRaw !== undefined) {
    const d = descRaw.trim();
    const n = [...d].length;
    if (n < 1 || n > 240)
      c.error(
        "a3s.manifest.ui",
        "UI description must contain between 1 and 240 characters.",
        a.valueRange("description"),
      );
    description = d;
  }
  const icon = a.string("icon", false) ?? "package";
  if (a.has("icon") && !isSegment(icon))
    c.error("a3s.manifest.ui", `UI icon '${icon}' must be a lowercase icon identifier.`, a.valueRange("icon"));
  const order = a.i32("order") ?? 100;
  const entry = a.path("entry", true);
  if (entry !== undefined && extension(entry) !== "html")
    c.error("a3s.manifest.ui", `UI surface '${id}' entry must be an HTML file.`, a.valueRange("entry"));
  const styles = uiAssets(c, a, "styles", "css");
  const scripts = uiAssets(c, a, "scripts", "js");
  const all = [...(entry !== undefined ? [entry] : []), ...styles, ...scripts];
  const keys = new Set<string>();
  for (const p of all) {
    const k = componentKey(p);
    if (keys.has(k)) {
      c.error("a3s.manifest.ui", `UI surface '${id}' asset '${p}' is declared more than once.`, a.valueRange("entry"));
      break;
    }
    keys.add(k);
  }
  const skill = a.string("skill", false);
  if (skill !== undefined && !isSegment(skill))
    c.error("a3s.manifest.ui", `UI surface '${id}' Skill reference is invalid.`, a.valueRange("skill"));
  const bindTools = a.references("bind_tool", "tool");
  const bindMcp = a.references("bind_mcp", "mcp");
  const bindFlows = a.references("bind_flow", "flow");
  const optional = a.bool("optional") ?? false;
  if (entry === undefined) return undefined;
  const s: UiSurface = {
    id,
    title,
    description,
    icon,
    order,
    entry,
    styles,
    scripts,
    bindTools,
    bindMcp,
    bindFlows,
    optional,
  };
  if (skill !== undefined) {
    const { bindTools: bt, bindMcp: bm, bindFlows: bf, optional: op, ...head } = s;
    return { ...head, skill, bindTools: bt, bindMcp: bm, bindFlows: bf, optional: op };
  }
  return s;
}

function uiAssets(c: Checker, a: Attrs, name: "styles" | "scripts", ext: string): string[] {
  const items = a.list(name, false);
  if (items === undefined) return [];
  if (items.length > 16) {
    c.error("a3s.manifest.ui", `UI '${name}' accepts at most 16 assets.`, a.valueRange(name));
    return [];
  }
  const seen = new Set<string>();
  const out: string[] = [];
  for (const p of items) {
    if (rejectsRelativePath(p)) {
      c.error(
        "a3s.manifest.path_escape",
        `Surface path '${p}' is not package-relative.`,
        a.valueRange(name),
        "use.extension.path_escape",
      );
      return out;
    }
    if (extension(p) !== ext) {
      c.error("a3s.manifest.ui", `UI '${name}' assets must use the .${ext} extension.`, a.valueRange(name));
      return out;
    }
    const k = componentKey(p);
    if (seen.has(k)) {
      c.error("a3s.manifest.ui", `UI asset '${p}' is declared more than once.`, a.valueRange(name));
      return out;
    }
    seen.add(k);
    out.push(p);
  }
  return out;
}

function dependencyBlock(c: Checker, b: AclBlock): PackageDependency | undefined {
  if (b.labels.length !== 1 || b.blocks.length > 0) {
    c.error(
      "a3s.manifest.dependency",
      "A dependency block requires exactly one package ID label and no nested blocks.",
      b.nameRange,
    );
    return undefined;
  }
  const a = new Attrs(c, b);
  a.unknown(["version"]);
  const id = b.labels[0]!.value;
  const req = a.string("version", true);
  if (req === undefined) return undefined;
  const fail = (inner: string) =>
    c.error(
      "a3s.manifest.dependency",
      `Package dependency '${id}' must use a canonical semantic-version requirement: ${inner}`,
      a.valueRange("version"),
    );
  if (!isPackageId(id, true) || req === "" || new TextEncoder().encode(req).length > 256) {
    fail("A cognitive-package dependency ID or version requirement is invalid.");
    return undefined;
  }
  const parsed = parseVersionReq(req);
  if (!parsed.ok) {
    fail("A cognitive-package dependency must use a canonical semantic-version requirement.");
    return undefined;
  }
  const canonical = formatVersionReq(parsed.value);
  if (canonical !== req) {
    fail("A cognitive-package dependency must use canonical semantic-version syntax.");
    return undefined;
  }
  return { packageId: id, versionRequirement: req };
}

function repositoryBlock(c: Checker, b: AclBlock): { url: string; revision?: string } | undefined {
  if (b.labels.length > 0 || b.blocks.length > 0) {
    c.error("a3s.manifest.repository", "The 'repository' surface cannot have labels or nested blocks.", b.nameRange);
    return undefined;
  }
  const a = new Attrs(c, b);
  a.unknown(["url", "revision"]);
  const url = a.string("url", true);
  let ok = url !== undefined;
  if (url !== undefined) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(url);
    } catch {
      const why = /^[A-Za-z][A-Za-z0-9+.-]*:/.test(url) ? "invalid URL" : "relative URL without a base";
      c.error("a3s.manifest.repository", `Invalid repository URL '${url}': ${why}`, a.valueRange("url"));
      ok = false;
    }
    if (parsed !== null) {
      // `?` and `#` count even when empty, which WHATWG parsing hides; look at the raw text.
      if (
        parsed.protocol !== "https:" ||
        parsed.username !== "" ||
        parsed.password !== "" ||
        parsed.hostname === "" ||
        url.includes("?") ||
        url.includes("#")
      ) {
        c.error(
          "a3s.manifest.repository",
          "Repository URLs must be credential-free HTTPS URLs without a query or fragment.",
          a.valueRange("url"),
        );
        ok = false;
      }
    }
  }
  const revision = a.string("revision", false);
  if (revision !== undefined && !REVISION.test(revision)) {
    c.error(
      "a3s.manifest.repository",
      "Repository revisions must be lowercase 40- or 64-character commit digests.",
      a.valueRange("revision"),
    );
    ok = false;
  }
  if (!ok || url === undefined) return undefined;
  return revision === undefined ? { url } : { url, revision };
}

function crossSurface(c: Checker, s: Surfaces): void {
  for (const k of SURFACE_KINDS) {
    if (s[k].length > MAX_SURFACES_PER_KIND) {
      c.error(
        "a3s.manifest.surface_count",
        `A plugin may declare at most ${MAX_SURFACES_PER_KIND} ${KIND_LABEL[k]} surfaces.`,
        s[k][MAX_SURFACES_PER_KIND]!.at,
      );
    }
  }
  const ids: Record<SurfaceKind, Set<string>> = {
    tool: new Set(),
    mcp: new Set(),
    okf: new Set(),
    flow: new Set(),
    skill: new Set(),
    ui: new Set(),
  };
  for (const k of SURFACE_KINDS) {
    for (const { s: surf, at } of s[k]) {
      if (ids[k].has(surf.id))
        c.error("a3s.manifest.duplicate_surface", `Duplicate ${KIND_LABEL[k]} surface ID '${surf.id}'.`, at);
      ids[k].add(surf.id);
    }
  }
  const missing = (
    owner: string,
    verb: string,
    what: string,
    kind: SurfaceKind,
    list: readonly string[],
    at: AclRange,
  ) => {
    for (const x of list)
      if (!ids[kind].has(x)) c.error("a3s.manifest.unknown_reference", `${owner} ${verb} unknown ${what} '${x}'.`, at);
  };
  for (const { s: f, at } of s.flow) {
    missing(`Flow '${f.id}'`, "requires", "Tool", "tool", f.requiresTools, at);
    missing(`Flow '${f.id}'`, "requires", "MCP surface", "mcp", f.requiresMcp, at);
    missing(`Flow '${f.id}'`, "requires", "OKF surface", "okf", f.requiresOkf, at);
  }
  for (const { s: k, at } of s.skill) {
    missing(`Skill '${k.id}'`, "requires", "Tool", "tool", k.requiresTools, at);
    missing(`Skill '${k.id}'`, "requires", "MCP surface", "mcp", k.requiresMcp, at);
    missing(`Skill '${k.id}'`, "requires", "OKF surface", "okf", k.requiresOkf, at);
    missing(`Skill '${k.id}'`, "requires", "Flow surface", "flow", k.requiresFlows, at);
  }
  for (const { s: u, at } of s.ui) {
    if (u.skill !== undefined) missing(`UI '${u.id}'`, "requires", "Skill", "skill", [u.skill], at);
    missing(`UI '${u.id}'`, "binds", "Tool", "tool", u.bindTools, at);
    missing(`UI '${u.id}'`, "binds", "MCP surface", "mcp", u.bindMcp, at);
    missing(`UI '${u.id}'`, "binds", "Flow surface", "flow", u.bindFlows, at);
  }
}

/** Kinds present, in the order tool, mcp, okf, flow, skill, ui (`surface_kinds()`). */
export function surfaceKinds(m: ExtensionManifest): SurfaceKind[] {
  const present: Record<SurfaceKind, unknown[] | undefined> = {
    tool: m.tools,
    mcp: m.mcpServers,
    okf: m.okf,
    flow: m.flows,
    skill: m.skills,
    ui: m.ui,
  };
  return SURFACE_KINDS.filter((k) => (present[k]?.length ?? 0) > 0);
}
