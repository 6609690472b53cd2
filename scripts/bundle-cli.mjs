// Bundles the compiled CLI (dist/src/cli/bin.js, which runs main.js) and its dependencies into dist/bundle/ so that
// start-up does not resolve hundreds of small ES modules (chevrotain imports all of lodash-es,
// ~300 ms on its own). Frontend command groups stay separate chunks, loaded only when used.
import { build } from "vite";

await build({
  configFile: false,
  logLevel: "warn",
  build: {
    ssr: "dist/src/cli/bin.js",
    outDir: "dist/bundle",
    emptyOutDir: true,
    target: "node20",
    minify: false,
    sourcemap: false,
    rollupOptions: { output: { entryFileNames: "yaoc.mjs", chunkFileNames: "chunks/[name]-[hash].mjs" } },
  },
  ssr: { noExternal: true, target: "node" },
});
