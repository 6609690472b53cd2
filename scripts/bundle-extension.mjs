// Bundles the VS Code client (editors/vscode/src/extension.ts) with vscode-languageclient into one
// CommonJS file, editors/vscode/dist/extension.js, so the extension packages without node_modules.
// `vscode` itself is provided by the editor at run time. Run by the packaging test (not `npm run build`).
// esbuild, the one bundler (options shared with the CLI bundle in scripts/esbuild-options.mjs).
import { build } from "esbuild";
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { NODE_BUNDLE } from "./esbuild-options.mjs";

const root = fileURLToPath(new URL("../editors/vscode/", import.meta.url));
rmSync(`${root}dist`, { recursive: true, force: true });
await build({
  ...NODE_BUNDLE,
  absWorkingDir: root,
  entryPoints: ["src/extension.ts"],
  outfile: "dist/extension.js",
  format: "cjs",
  target: "node18",
  external: ["vscode"],
});
