// `npm run build:browser`: the core as minified ES modules for browsers: dist/browser/yaoc.min.js
// plus lazily loaded chunks. Like the CLI, `check` imports the HARP, A3S and HCP frontends only when
// a package of that kind is checked, so a page that checks HNS/Yao packages loads the entry and its
// static imports only ("initial"; budget 400 KiB, issue 18), and the frontends' parsers (ajv, yaml,
// markdown-it) arrive on first use. esbuild with platform "browser" cannot resolve Node built-ins,
// so a `node:` import anywhere the core reaches fails this build. Prints the sizes and the inputs
// that dominate them; `--json` prints the same as one JSON object (read by `npm run bench`).
import { build } from "esbuild";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..");
/** The budget the issue sets for the minified bundle (issue 18). */
export const BROWSER_BUNDLE_LIMIT = 400 * 1024;

/** Builds into dist/browser, or into `options.outdir` (a test's temporary directory). */
export async function buildBrowserBundle(options = {}) {
  const outdir = options.outdir ?? join(REPO, "dist/browser");
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    entryPoints: { "yaoc.min": join(REPO, "src/index.ts") },
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
