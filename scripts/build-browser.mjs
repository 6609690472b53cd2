// `npm run build:browser`: the core as minified ES modules for browsers: dist/browser/yaoc.min.js
// plus lazily loaded chunks. Like the CLI, `check` imports the HARP, A3S and HCP frontends only when
// a package of that kind is checked, so a page that checks HNS/Yao packages loads the entry and its
// static imports only ("initial"; budget 400 KiB, issue 18), and the frontends' parsers (ajv, yaml,
// markdown-it) arrive on first use. The entry is src/browser.ts: "yaoc"'s exports with the code table
// (ALL_CODES, codeInfo) behind `codeTable()`, and the reason rows of the lazily loaded parts' codes
// reduced at build time (reasonRowsPlugin). esbuild with platform "browser" cannot resolve Node built-ins,
// so a `node:` import anywhere the core reaches fails this build. Prints the sizes and the inputs
// that dominate them; `--json` prints the same as one JSON object (read by `npm run bench`).
import { build } from "esbuild";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..");
/** The budget the issue sets for the minified bundle (issue 18). */
export const BROWSER_BUNDLE_LIMIT = 400 * 1024;

const LAZY_TABLES = join(REPO, "src/codes/lazy-tables.ts");
const SEVERITY_LETTER = { error: "e", warning: "w", info: "i" };

/**
 * One table's rows as one string, a line per row: the code after the table's common prefix (after
 * a leading `.` only the rest when it shares its first segment with the row before, as a3s's
 * `manifest.*` rows do), the layer digit with the severity's letter, the reason, and the
 * downgradedTo letter if any. A reason that is its family and the code's last segment
 * (`harp.manifest_missing` → `struct_manifest_missing`) is only the family; one that is its family
 * and the name with `_` for `.` (`a3s.okf.path_escape` → `danger_okf_path_escape`) is the family
 * and `.` (reasons have no `.`). About a fifth of the rows' size in the entry.
 */
function encodeTable(rows) {
  let prefix = rows.length === 0 ? "" : rows[0].code.slice(0, rows[0].code.indexOf(".") + 1);
  if (!rows.every((r) => r.code.startsWith(prefix))) prefix = "";
  let segment = "";
  const lines = rows.map((r) => {
    const name = r.code.slice(prefix.length);
    const dot = name.indexOf(".");
    const first = dot < 0 ? "" : name.slice(0, dot);
    const written = first !== "" && first === segment ? name.slice(dot) : name;
    segment = first;
    const last = r.code.slice(r.code.lastIndexOf(".") + 1);
    const family = r.reason.slice(0, r.reason.indexOf("_"));
    const reason =
      r.reason === `${family}_${last}`
        ? family
        : r.reason === `${family}_${name.replaceAll(".", "_")}`
          ? `${family}.`
          : r.reason;
    const fields = [written, `${r.layer.slice(1)}${SEVERITY_LETTER[r.severity]}`, reason];
    if (r.downgradedTo !== undefined) fields.push(SEVERITY_LETTER[r.downgradedTo]);
    if (fields.some((f) => f.includes(" ") || f.includes("\n") || f === "") || name.startsWith("."))
      throw new Error(`cannot encode ${r.code}`);
    return fields.join(" ");
  });
  return { prefix, text: lines.join("\n") };
}

/**
 * reasons.ts imports lazy-tables.ts for the reason codes of the lazily loaded parts' codes; in the
 * entry that would be every row with its summary and clause. This plugin gives reasons.ts instead
 * a module with the same rows reduced to code, severity, layer, reason and downgradedTo, computed
 * now from the real lazy-tables.ts (bundled and evaluated here), so they cannot drift from it.
 * Every other importer (the frontends, the registry) keeps the real tables.
 */
function reasonRowsPlugin() {
  return {
    name: "yaoc-reason-rows",
    setup(b) {
      b.onResolve({ filter: /\/lazy-tables\.js$/ }, (args) =>
        args.importer === join(REPO, "src/codes/reasons.ts")
          ? { path: "reason-rows", namespace: "yaoc-reason-rows" }
          : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: "yaoc-reason-rows" }, async () => {
        const bundled = await build({
          entryPoints: [LAZY_TABLES],
          bundle: true,
          format: "esm",
          platform: "neutral",
          write: false,
          absWorkingDir: REPO,
          logLevel: "error",
        });
        const url = `data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString("base64")}`;
        const { LAZY_TABLES: tables } = await import(url);
        const encoded = JSON.stringify(tables.map(encodeTable));
        const contents = `const SEVERITY = { e: "error", w: "warning", i: "info" };
function decode({ prefix, text }) {
  let segment = "";
  return text.split("\\n").map((line) => {
    const [written, layerSeverity, reason, downgraded] = line.split(" ");
    const name = written.startsWith(".") ? segment + written : written;
    segment = name.includes(".") ? name.slice(0, name.indexOf(".")) : "";
    const code = prefix + name;
    const row = {
      code,
      severity: SEVERITY[layerSeverity.slice(-1)],
      layer: "L" + layerSeverity.slice(0, -1),
      reason: reason.endsWith(".")
        ? reason.slice(0, -1) + "_" + name.replaceAll(".", "_")
        : reason.includes("_")
          ? reason
          : reason + "_" + code.slice(code.lastIndexOf(".") + 1),
    };
    if (downgraded !== undefined) row.downgradedTo = SEVERITY[downgraded];
    return row;
  });
}
export const LAZY_TABLES = ${encoded}.map(decode);
`;
        return { contents, loader: "js", resolveDir: REPO, watchFiles: [] };
      });
    },
  };
}

/** Builds into dist/browser, or into `options.outdir` (a test's temporary directory). */
export async function buildBrowserBundle(options = {}) {
  const outdir = options.outdir ?? join(REPO, "dist/browser");
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    entryPoints: { "yaoc.min": join(REPO, "src/browser.ts") },
    outdir,
    chunkNames: "chunks/[name]-[hash]",
    splitting: true,
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    metafile: true,
    absWorkingDir: REPO,
    logLevel: "error",
    plugins: [reasonRowsPlugin()],
  });
  const outputs = result.metafile.outputs;
  const entryName = Object.keys(outputs).find((o) => o.endsWith("yaoc.min.js"));
  // The initial load: the entry and everything it imports statically, transitively.
  const initial = new Set();
  const visit = (name) => {
    if (initial.has(name)) return;
    initial.add(name);
    for (const i of outputs[name].imports) if (i.kind === "import-statement") visit(i.path);
  };
  visit(entryName);
  const sizeOf = (names) => names.reduce((n, o) => n + outputs[o].bytes, 0);
  const jsOutputs = Object.keys(outputs).filter((o) => o.endsWith(".js"));
  const groupsOf = (names) => {
    const groups = new Map();
    for (const o of names)
      for (const [path, info] of Object.entries(outputs[o].inputs)) {
        const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path) ?? /^(src\/[^/]+|grammar|ir)/.exec(path);
        const key = m ? m[1] : path;
        groups.set(key, (groups.get(key) ?? 0) + info.bytesInOutput);
      }
    return groups;
  };
  const topOf = (names) =>
    [...groupsOf(names)]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([name, bytes]) => ({ name, bytes }));
  const r = {
    outfile: join(REPO, entryName),
    bytes: sizeOf([...initial]),
    limit: BROWSER_BUNDLE_LIMIT,
    top: topOf([...initial]),
    // Every package and src/ directory in the initial load, so a test can say what must stay lazy.
    initialGroups: [...groupsOf([...initial]).keys()].sort(),
    totalBytes: sizeOf(jsOutputs),
    lazyTop: topOf(jsOutputs.filter((o) => !initial.has(o))),
  };
  writeFileSync(join(outdir, "size.json"), JSON.stringify(r, null, 2));
  return r;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = await buildBrowserBundle();
  if (process.argv.includes("--json")) process.stdout.write(`${JSON.stringify(r)}\n`);
  else {
    const kib = (n) => `${(n / 1024).toFixed(1).padStart(7)} KiB`;
    process.stdout.write(
      `${r.outfile}: initial load ${kib(r.bytes)} minified (budget ${r.limit / 1024} KiB); all chunks ${kib(r.totalBytes)}\n`,
    );
    for (const t of r.top) process.stdout.write(`  initial ${kib(t.bytes)}  ${t.name}\n`);
    for (const t of r.lazyTop) process.stdout.write(`  lazy    ${kib(t.bytes)}  ${t.name}\n`);
  }
  if (r.bytes > r.limit) {
    process.stderr.write(`build:browser: the bundle is over its ${r.limit / 1024} KiB budget\n`);
    process.exitCode = 1;
  }
}
