// Bundles the VS Code client (editors/vscode/src/extension.ts) with vscode-languageclient into one
// CommonJS file, editors/vscode/dist/extension.js, so the extension packages without node_modules.
// `vscode` itself is provided by the editor at run time. Run by the packaging test (not `npm run build`).
import { fileURLToPath } from "node:url";
import { build } from "vite";

const root = fileURLToPath(new URL("../editors/vscode/", import.meta.url));
await build({
  configFile: false,
  logLevel: "warn",
  root,
  build: {
    ssr: "src/extension.ts",
    outDir: "dist",
    emptyOutDir: true,
    target: "node18",
    minify: false,
    sourcemap: false,
    rollupOptions: {
      external: ["vscode"],
      output: { format: "cjs", entryFileNames: "extension.js", codeSplitting: false },
    },
  },
  ssr: { noExternal: true, target: "node" },
});
