import { build } from "esbuild";
const r = await build({ entryPoints: { "yaoc.min": "src/index.ts" }, outdir: "/tmp/hplay-bb", splitting: true, bundle: true, format: "esm", platform: "browser", target: "es2022", minify: true, metafile: true, write: false, logLevel: "error" });
const ins = r.metafile.inputs;
// BFS over static imports from src/index.ts
const targets = process.argv.slice(2);
const prev = new Map([["src/index.ts", null]]); const q = ["src/index.ts"];
while (q.length) { const n = q.shift(); for (const i of ins[n]?.imports ?? []) if (i.kind === "import-statement" && !prev.has(i.path)) { prev.set(i.path, n); q.push(i.path); } }
for (const t of targets) { const chain = []; let c = t; while (c) { chain.push(c); c = prev.get(c); } console.log(chain.reverse().join("\n  -> ")); console.log(); }
