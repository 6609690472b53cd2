// Bundles the compiled CLI (dist/src/cli/bin.js, which runs main.js) and its dependencies into dist/bundle/ so that
// start-up does not resolve hundreds of small ES modules (chevrotain imports all of lodash-es,
// ~300 ms on its own). Frontend command groups stay separate chunks, loaded only when used.
// The worker thread of `yaoc check --jobs` is a second entry (check-worker.mjs, next to yaoc.mjs;
// bin.ts finds it there), sharing chunks with the CLI.
import { build } from "vite";

await build({
  configFile: false,
  logLevel: "warn",
  build: {
    ssr: true,
    outDir: "dist/bundle",
    emptyOutDir: true,
    target: "node20",
    minify: false,
    sourcemap: false,
    rollupOptions: {
      input: { yaoc: "dist/src/cli/bin.js", "check-worker": "dist/src/cli/check-worker.js" },
      output: { entryFileNames: "[name].mjs", chunkFileNames: "chunks/[name]-[hash].mjs" },
    },
  },
  ssr: { noExternal: true, target: "node" },
});
