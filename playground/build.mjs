// `npm run build:playground`: bundles playground/src with esbuild into dist/playground/ (a static
// site: index.html, style.css, app.js). Two virtual modules are filled in at build time:
//   yaoc-playground:examples — the shipped examples (examples/*), a pure program for Run
//                              (playground/examples) and one pack of each other kind;
//   yaoc-playground:fmt      — src/fmt (`yaoc fmt`) when the repository has it, else a stand-in
//                              whose `available` is false (the page then says so in the fmt tab).
import { build } from "esbuild";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, "..");
export const PLAYGROUND_DIST = join(REPO, "dist/playground");

/**
 * Examples in menu order, each named for what it is: the shipped HNS examples, a pure program for
 * Run, then one valid package of each other kind. `name` is the package's name in the page.
 */
const EXAMPLES = [
  { path: "examples/review.hns", name: "review.hns", label: "HNS package, one file: calls a tool (review.hns)" },
  { path: "examples/review-dir.hns", name: "review-dir.hns", label: "HNS package, a directory (review-dir.hns)" },
  {
    path: "playground/examples/order-total.hns",
    name: "order-total.hns",
    label: "pure program: Run gives a value (order-total.hns)",
  },
  { path: "fixtures/hcp/valid", name: "harness-pack", label: "HCP harness pack (surface, policy, HARNESS.md)" },
];
const MAX_EXAMPLE_FILE = 64 * 1024;

function readTree(root) {
  const files = {};
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      const st = statSync(full);
      if (st.isDirectory()) walk(full);
      else if (st.isFile() && st.size <= MAX_EXAMPLE_FILE) {
        const text = readFileSync(full, "utf8");
        if (!text.includes("\uFFFD")) files[relative(root, full).split("\\").join("/")] = text;
      }
    }
  };
  walk(root);
  return files;
}

function examplesModule() {
  const examples = EXAMPLES.filter((e) => existsSync(join(REPO, e.path))).map(({ path, name, label }) => {
    const full = join(REPO, path);
    return { name, label, files: statSync(full).isDirectory() ? readTree(full) : { "": readFileSync(full, "utf8") } };
  });
  return `export const examples = ${JSON.stringify(examples)};`;
}

function fmtModule() {
  const fmt = join(REPO, "src/fmt/index.ts");
  if (existsSync(fmt)) return `export { formatSource } from ${JSON.stringify(fmt)};\nexport const available = true;`;
  return "export const available = false;\nexport function formatSource() { return { ok: false }; }";
}

const virtualModules = {
  name: "yaoc-playground",
  setup(b) {
    b.onResolve({ filter: /^yaoc-playground:/ }, (args) => ({ path: args.path, namespace: "yaoc-playground" }));
    b.onLoad({ filter: /.*/, namespace: "yaoc-playground" }, (args) => ({
      contents: args.path === "yaoc-playground:examples" ? examplesModule() : fmtModule(),
      loader: "ts",
      resolveDir: REPO,
    }));
  },
};

export async function buildPlayground() {
  rmSync(PLAYGROUND_DIST, { recursive: true, force: true });
  mkdirSync(PLAYGROUND_DIST, { recursive: true });
  await build({
    entryPoints: [join(HERE, "src/main.ts")],
    outfile: join(PLAYGROUND_DIST, "app.js"),
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    sourcemap: true,
    legalComments: "none",
    logLevel: "error",
    absWorkingDir: REPO,
    plugins: [virtualModules],
  });
  for (const f of ["index.html", "style.css"]) copyFileSync(join(HERE, f), join(PLAYGROUND_DIST, f));
  return PLAYGROUND_DIST;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = await buildPlayground();
  process.stdout.write(`playground built into ${relative(process.cwd(), out) || "."}\n`);
}
