/**
 * Fuzz targets shared by `npm run fuzz` (scripts/fuzz.ts) and the regression replay test
 * (test/fuzz-regressions/replay.test.ts). A target owns a corpus of seeds (fixture packages and the
 * reference corpora) and a `run` that feeds one mutated input through the frontend's public entry
 * point. Contract: `run` resolves with the diagnostics count; any exception is a finding.
 *
 * A seed is a set of files plus the one file the mutator rewrites (`key`), so directory frontends
 * (HARP, HCP, A3S/OKF, HNS directories) are fuzzed on realistic packages. Seed ids are stable
 * strings, so a saved regression names the seed it came from and replays without the fuzzer.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { ACL_MAX_BYTES, parseAcl } from "../src/a3s/acl/parse.js";
import { checkManifestText } from "../src/a3s/manifest/check.js";
import { MemoryFs } from "../src/fs/memory-fs.js";
import { check } from "../src/check/check.js";
import { readAll } from "../src/syntax/reader.js";
import { analyzeProgram, analyzeSources, programHash } from "../src/yao/index.js";
import type { CheckResult } from "../src/diagnostics/result.js";
import { renderHuman } from "../src/diagnostics/render.js";
import { renderEvidenceJson } from "../src/evidence/receipt.js";
import { FsError } from "../src/fs/package-fs.js";
import { FrameGuard } from "../src/lsp/node-frames.js";
import { Workspace } from "../src/lsp/workspace.js";

export const TARGETS = ["yao", "hns", "acl", "harp", "okf", "hcp", "a3s", "memfs", "lsp"] as const;
export type TargetName = (typeof TARGETS)[number];

export interface Seed {
  readonly id: string;
  /** Absolute in-memory paths → bytes. */
  readonly files: Readonly<Record<string, Uint8Array>>;
  /** The file the mutator rewrites. */
  readonly key: string;
}

export interface Target {
  readonly name: TargetName;
  seeds(): Seed[];
  run(seed: Seed, input: Uint8Array): Promise<number>;
}

function repoRoot(): string {
  if (process.env["YAOC_REPO"]) return process.env["YAOC_REPO"];
  // dist/scripts/… when compiled, scripts/… under vitest.
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) dir = dirname(dir);
  return dir;
}

export const REPO = repoRoot();

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) for (const q of walk(p)) out.push(q);
    else if (st.isFile()) out.push(p);
  }
  return out;
}

/** Every file under `dir`, mounted at `/pkg/…` in memory. */
function mount(dir: string, at = "/pkg"): Record<string, Uint8Array> {
  const files: Record<string, Uint8Array> = {};
  for (const p of walk(dir)) files[`${at}/${relative(dir, p).split("\\").join("/")}`] = new Uint8Array(readFileSync(p));
  return files;
}

const enc = new TextEncoder();
const dec = new TextDecoder();

function single(id: string, key: string, bytes: Uint8Array): Seed {
  return { id, files: { [key]: bytes }, key };
}

function memFs(seed: Seed, input: Uint8Array): MemoryFs {
  const fs = new MemoryFs();
  for (const [p, data] of Object.entries(seed.files)) fs.writeFile(p, p === seed.key ? input : data);
  return fs;
}

// ---------------------------------------------------------------------------------------------
// Seeds

function yaoSeeds(): Seed[] {
  const out: Seed[] = [];
  for (const p of walk(join(REPO, "fixtures"))) {
    if (p.endsWith(".yao") || p.endsWith(".hns"))
      out.push(single(`file:${relative(REPO, p)}`, "/in.yao", new Uint8Array(readFileSync(p))));
  }
  return out;
}

function hnsSeeds(): Seed[] {
  const out: Seed[] = [];
  for (const group of ["success", "failure"]) {
    const base = join(REPO, "fixtures", "hns", group);
    for (const code of existsSync(base) ? readdirSync(base).sort() : []) {
      const p = join(base, code);
      const candidates =
        statSync(p).isDirectory() && !p.endsWith(".hns")
          ? readdirSync(p)
              .sort()
              .map((n) => join(p, n))
          : [p];
      for (const c of candidates) {
        if (!c.endsWith(".hns")) continue;
        if (statSync(c).isFile())
          out.push(single(`file:${relative(REPO, c)}`, "/p.hns", new Uint8Array(readFileSync(c))));
        else {
          const files = mount(c, "/p.hns");
          for (const key of Object.keys(files).sort())
            out.push({ id: `dir:${relative(REPO, c)}#${key.slice("/p.hns/".length)}`, files, key });
        }
      }
    }
  }
  return out;
}

function aclSeeds(): Seed[] {
  const out: Seed[] = [];
  for (const p of walk(join(REPO, "fixtures", "a3s")))
    if (p.endsWith(".acl")) out.push(single(`file:${relative(REPO, p)}`, "/x.acl", new Uint8Array(readFileSync(p))));
  // Our own ACL reader cases (fixtures/a3s/cases/acl-parse.json): every leniency and rejection.
  const casesFile = join(REPO, "fixtures", "a3s", "cases", "acl-parse.json");
  if (existsSync(casesFile)) {
    const cases = JSON.parse(readFileSync(casesFile, "utf8")) as { id: string; input: string }[];
    for (const c of cases) out.push(single(`acl-case:${c.id}`, "/x.acl", enc.encode(c.input)));
  }
  return out;
}

function harpSeeds(): Seed[] {
  const out: Seed[] = [];
  const dirs = [join(REPO, "fixtures", "harp")];
  for (const base of dirs) {
    for (const name of existsSync(base) ? readdirSync(base).sort() : []) {
      const d = join(base, name);
      if (!statSync(d).isDirectory()) continue;
      const files = mount(d);
      const key = "/pkg/harp.json";
      out.push({
        id: `dir:${relative(REPO, d)}#harp.json`,
        files: { ...files, [key]: files[key] ?? enc.encode("{}") },
        key,
      });
    }
  }
  return out;
}

function okfSeeds(): Seed[] {
  // Our own package acme/atlas with its OKF bundle (fixtures/a3s, written by test/a3s/fixtures-gen.ts).
  const dir = join(REPO, "fixtures", "a3s", "packages", "valid-okf");
  if (!existsSync(dir)) return [];
  const files = mount(dir);
  return Object.keys(files)
    .sort()
    .map((key) => ({ id: `okf:valid-okf#${key.slice(5)}`, files, key }));
}

/** Our own A3S package fixtures, each with its manifest (the ACL) as the mutated file. */
function a3sSeeds(): Seed[] {
  const out: Seed[] = [];
  const base = join(REPO, "fixtures", "a3s", "packages");
  for (const name of existsSync(base) ? readdirSync(base).sort() : []) {
    const d = join(base, name);
    if (!statSync(d).isDirectory()) continue;
    const files = mount(d);
    const key = "/pkg/a3s-use-extension.acl";
    if (files[key] !== undefined) out.push({ id: `dir:${relative(REPO, d)}#a3s-use-extension.acl`, files, key });
  }
  return out;
}

function hcpSeeds(): Seed[] {
  const out: Seed[] = [];
  const base = join(REPO, "fixtures", "hcp");
  for (const name of existsSync(base) ? readdirSync(base).sort() : []) {
    const d = join(base, name);
    if (!statSync(d).isDirectory()) continue;
    const files = mount(d);
    for (const f of ["surface.json", "policy.json", "HARNESS.md"]) {
      const key = `/pkg/${f}`;
      if (files[key] !== undefined) out.push({ id: `dir:${relative(REPO, d)}#${f}`, files, key });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Runs: each goes through the public entry points and only counts diagnostics.

/** Diagnostics of one result that go through the receipt (the rest are only counted). */
const RECEIPT_SAMPLE = 5000;

/**
 * A result must also be reportable: `check --format json` (receipts, RFC 8785) and the human form
 * once crashed on results a frontend produced without complaint (a lone surrogate in an HCP id).
 * The receipt costs ~60 µs per diagnostic (linear, measured), so a mutant with 200,000 diagnostics
 * would cost the fuzz loop seconds: its receipt is built from the first RECEIPT_SAMPLE diagnostics.
 */
function reported(r: CheckResult): number {
  const sample =
    r.diagnostics.length > RECEIPT_SAMPLE ? { ...r, diagnostics: r.diagnostics.slice(0, RECEIPT_SAMPLE) } : r;
  renderEvidenceJson([sample], { analyze: false });
  renderHuman([r], { color: false });
  return r.diagnostics.length;
}

function countYao(bytes: Uint8Array): number {
  const r = readAll(bytes, { file: "in.yao" });
  if (!r.ok) return 1;
  let n = 0;
  for (const form of r.forms.slice(0, 8)) {
    const a = analyzeProgram(form);
    n += a.diagnostics.length;
    if (a.program !== undefined) programHash(a.program);
  }
  // The reference's whole-module path: byte limit, parse_one, analysis.
  n += analyzeSources({ source: r.text }).diagnostics.length;
  return n;
}

// ---------------------------------------------------------------------------------------------
// MemoryFs trees and LSP message streams (issue 35): the browser core's file layer and the
// language server's transport and features, each fed mutated input in-process.

/**
 * A tree as text, one entry per line: `PATH<TAB>CONTENT` a file (`\\n` for a newline in it),
 * `PATH -> TARGET` a symbolic link, `PATH/` a directory. Mutations then reshape the tree itself:
 * deep or wide folders, link loops, links out of the package, names that are not paths.
 */
function treeOf(input: Uint8Array): MemoryFs {
  const fs = new MemoryFs();
  fs.mkdir("/pkg");
  for (const line of dec.decode(input).split("\n").slice(0, 5000)) {
    const tab = line.indexOf("\t");
    const arrow = line.indexOf(" -> ");
    if (tab >= 0) fs.writeFile(`/pkg/${line.slice(0, tab)}`, line.slice(tab + 1).replaceAll("\\n", "\n"));
    else if (arrow >= 0) fs.symlink(`/pkg/${line.slice(0, arrow)}`, line.slice(arrow + 4));
    else if (line.endsWith("/")) fs.mkdir(`/pkg/${line}`);
  }
  return fs;
}

function memfsSeeds(): Seed[] {
  return hnsSeeds()
    .filter((s) => Object.keys(s.files).length > 1)
    .slice(0, 40)
    .map((s) => {
      const lines = Object.entries(s.files).map(
        ([p, b]) => `${p.replace(/^\/p\.hns\//, "")}\t${dec.decode(b).replaceAll("\n", "\\n")}`,
      );
      return single(`memfs:${s.id}`, "/tree", enc.encode(`${lines.join("\n")}\nfunctions/loop.yao -> loop.yao\n`));
    });
}

async function runMemfs(input: Uint8Array): Promise<number> {
  const fs = treeOf(input);
  const snap = await fs.snapshotPackage("/pkg", { maxEntries: 2000, maxDepth: 32 });
  const r = await check(fs, "/pkg");
  return r.diagnostics.length + snap.entries.size;
}

const LSP_DOC = "file:///ws/p.hns";

function lspSeeds(): Seed[] {
  const text = hnsSeeds()
    .filter((s) => Object.keys(s.files).length === 1)
    .slice(0, 20);
  return text.map((s) => {
    const source = dec.decode(Object.values(s.files)[0]!);
    const frames = [
      { method: "textDocument/didOpen", params: { textDocument: { uri: LSP_DOC, version: 1, text: source } } },
      {
        id: 2,
        method: "textDocument/hover",
        params: { textDocument: { uri: LSP_DOC }, position: { line: 3, character: 5 } },
      },
      {
        id: 3,
        method: "textDocument/references",
        params: {
          textDocument: { uri: LSP_DOC },
          position: { line: 5, character: 8 },
          context: { includeDeclaration: true },
        },
      },
      { id: 4, method: "textDocument/documentSymbol", params: { textDocument: { uri: "file:///ws/../etc/passwd" } } },
      { id: 5, method: "textDocument/formatting", params: { textDocument: { uri: LSP_DOC } } },
      { id: 6, method: "shutdown" },
      {
        id: 7,
        method: "textDocument/hover",
        params: { textDocument: { uri: LSP_DOC }, position: { line: 0, character: 0 } },
      },
    ]
      .map((m) => {
        const body = JSON.stringify({ jsonrpc: "2.0", ...m });
        return `Content-Length: ${enc.encode(body).length}\r\n\r\n${body}`;
      })
      .join("");
    return single(`lsp:${s.id}`, "/stream", enc.encode(frames));
  });
}

/** The message stream through the frame guard, then each forwarded message through the workspace. */
async function runLsp(input: Uint8Array): Promise<number> {
  const messages: Buffer[] = [];
  let events = 0;
  const guard = new FrameGuard({ malformed: () => void events++, exit: () => void events++ });
  guard.on("data", (b: Buffer) => messages.push(b));
  await new Promise<void>((resolve, reject) => {
    guard.on("error", reject);
    guard.end(Buffer.from(input), () => resolve());
  });
  const stream = Buffer.concat(messages).toString("utf8");
  const ws = new Workspace(new MemoryFs());
  let answered = 0;
  for (const body of stream.split(/Content-Length: \d+\r\n\r\n/).slice(1, 200)) {
    interface Params {
      textDocument?: { uri?: unknown; text?: unknown };
      position?: { line: unknown; character: unknown };
    }
    let m: { method?: unknown; params?: Params };
    try {
      m = JSON.parse(body);
    } catch {
      continue; // the library answers a parse error
    }
    const params = m?.params;
    const uri = params?.textDocument?.uri;
    if (typeof uri !== "string" || !uri.startsWith("file:///")) continue;
    let path: string;
    try {
      path = decodeURIComponent(uri.slice(7));
    } catch {
      continue; // an InvalidParams answer
    }
    const at = params?.position ?? { line: 0, character: 0 };
    if (typeof at.line !== "number" || typeof at.character !== "number") continue;
    const position = { line: at.line, character: at.character };
    const text = params?.textDocument?.text;
    try {
      if (m.method === "textDocument/didOpen" && typeof text === "string") {
        ws.open(path, text);
        await ws.check(path);
      } else if (m.method === "textDocument/hover") await ws.hover(path, position);
      else if (m.method === "textDocument/references") await ws.references(path, position, true);
      else if (m.method === "textDocument/definition") await ws.definition(path, position);
      else if (m.method === "textDocument/documentSymbol") await ws.symbols(path);
      else if (m.method === "textDocument/formatting") await ws.format(path);
      else if (m.method === "textDocument/completion") await ws.completion(path);
      answered++;
    } catch (e) {
      // A request about a file that is not there is an answer (an error response), not a crash.
      if (!(e instanceof FsError)) throw e;
    }
  }
  return answered + events;
}

const targets: Record<TargetName, Target> = {
  yao: { name: "yao", seeds: yaoSeeds, run: async (_s, input) => countYao(input) },
  hns: {
    name: "hns",
    seeds: hnsSeeds,
    run: async (seed, input) => reported(await check(memFs(seed, input), "/p.hns")),
  },
  acl: {
    name: "acl",
    seeds: aclSeeds,
    run: async (_s, input) => {
      // The A3S check reads the manifest with this limit, so larger inputs never reach the parser.
      if (input.length > ACL_MAX_BYTES) return 1;
      const text = dec.decode(input);
      const p = parseAcl(text, "x.acl");
      const m = checkManifestText(text, "x.acl");
      return p.strict.length + (p.referenceError ? 1 : 0) + m.diagnostics.length;
    },
  },
  harp: {
    name: "harp",
    seeds: harpSeeds,
    run: async (seed, input) => reported(await check(memFs(seed, input), "/pkg", { kind: "harp" })),
  },
  okf: {
    name: "okf",
    seeds: okfSeeds,
    run: async (seed, input) => reported(await check(memFs(seed, input), "/pkg", { kind: "a3s" })),
  },
  hcp: {
    name: "hcp",
    seeds: hcpSeeds,
    run: async (seed, input) => reported(await check(memFs(seed, input), "/pkg", { kind: "hcp" })),
  },
  a3s: {
    name: "a3s",
    seeds: a3sSeeds,
    run: async (seed, input) => reported(await check(memFs(seed, input), "/pkg", { kind: "a3s" })),
  },
  memfs: { name: "memfs", seeds: memfsSeeds, run: async (_s, input) => runMemfs(input) },
  lsp: { name: "lsp", seeds: lspSeeds, run: async (_s, input) => runLsp(input) },
};

export function target(name: string): Target {
  if (!(TARGETS as readonly string[]).includes(name))
    throw new Error(`unknown fuzz target '${name}' (${TARGETS.join(", ")})`);
  return targets[name as TargetName];
}

/** Saved regressions: fixtures/fuzz-regressions/<target>/<hash>.{bin,json}. */
export const REGRESSIONS = join(REPO, "fixtures", "fuzz-regressions");

export interface RegressionMeta {
  readonly target: TargetName;
  readonly seed: string;
  readonly reason: "crash" | "slow" | "hang";
  readonly detail: string;
  readonly ms: number;
  readonly found: string;
  /**
   * A big input is described instead of committed as `<hash>.bin`: the concatenation of the parts,
   * each `text` repeated `repeat` times (default 1). Built at replay time.
   */
  readonly generate?: readonly { readonly text: string; readonly repeat?: number }[];
}

/** The input a `generate` description stands for. */
export function generateInput(parts: NonNullable<RegressionMeta["generate"]>): Uint8Array {
  const chunks: string[] = [];
  for (const part of parts) chunks.push(part.text.repeat(part.repeat ?? 1));
  return enc.encode(chunks.join(""));
}

export function listRegressions(): { meta: RegressionMeta; input: Uint8Array; file: string }[] {
  const out: { meta: RegressionMeta; input: Uint8Array; file: string }[] = [];
  for (const p of walk(REGRESSIONS)) {
    if (!p.endsWith(".json")) continue;
    const meta = JSON.parse(readFileSync(p, "utf8")) as RegressionMeta;
    const input =
      meta.generate !== undefined
        ? generateInput(meta.generate)
        : new Uint8Array(readFileSync(p.replace(/\.json$/, ".bin")));
    out.push({ meta, input, file: relative(REPO, p) });
  }
  return out;
}

/** The seed a regression was derived from (falls back to the first seed if a fixture was renamed). */
export function seedFor(t: Target, id: string, cache = new Map<TargetName, Seed[]>()): Seed {
  let seeds = cache.get(t.name);
  if (seeds === undefined) cache.set(t.name, (seeds = t.seeds()));
  return seeds.find((s) => s.id === id) ?? seeds[0]!;
}
