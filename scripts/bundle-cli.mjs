// Bundles the compiled CLI (dist/src/cli/bin.js, which runs main.js) and its dependencies into dist/bundle/ so that
// start-up does not resolve hundreds of small ES modules (chevrotain imports all of lodash-es,
// ~300 ms on its own). Frontend command groups stay separate chunks, loaded only when used.
// The worker thread of `yaoc check --jobs` is a second entry (check-worker.mjs, next to yaoc.mjs;
// bin.ts finds it there), sharing chunks with the CLI. esbuild is the one bundler (docs/architecture.md,
// "Bundles"); the options every bundle shares are in scripts/esbuild-options.mjs.
import { build } from "esbuild";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { NODE_BUNDLE } from "./esbuild-options.mjs";

const REPO = fileURLToPath(new URL("..", import.meta.url));
rmSync(`${REPO}dist/bundle`, { recursive: true, force: true });
const result = await build({
  ...NODE_BUNDLE,
  absWorkingDir: REPO,
  entryPoints: { yaoc: "dist/src/cli/bin.js", "check-worker": "dist/src/cli/check-worker.js" },
  outdir: "dist/bundle",
  format: "esm",
  splitting: true,
  outExtension: { ".js": ".mjs" },
  chunkNames: "chunks/[name]-[hash]",
  write: false,
});
// CommonJS dependencies (commander, vscode-languageserver) call require() for Node built-ins, which
// an ES module does not have: the files that do get one from createRequire (only those, so the
// bundle does not grow by a line per chunk).
const REQUIRE =
  'import { createRequire as __yaocCreateRequire } from "node:module";\nconst require = __yaocCreateRequire(import.meta.url);\n';
for (const file of result.outputFiles) {
  mkdirSync(dirname(file.path), { recursive: true });
  writeFileSync(file.path, /\brequire\b/.test(file.text) ? REQUIRE + file.text : file.text);
}
