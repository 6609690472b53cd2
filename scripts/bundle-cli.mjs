// Bundles the compiled CLI (dist/src/cli/bin.js, which runs main.js) and its dependencies into dist/bundle/ so that
// start-up does not resolve hundreds of small ES modules (chevrotain imports all of lodash-es,
// ~300 ms on its own). Frontend command groups stay separate chunks, loaded only when used.
// The worker thread of `yaoc check --jobs` is a second entry (check-worker.mjs, next to yaoc.mjs;
// bin.ts finds it there), sharing chunks with the CLI. esbuild is the one bundler (docs/architecture.md,
// "Bundles"); the options every bundle shares are in scripts/esbuild-options.mjs.
import { build } from "esbuild";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { NODE_BUNDLE } from "./esbuild-options.mjs";

const REPO = fileURLToPath(new URL("..", import.meta.url));

/**
 * string-width (src/diagnostics/display-width.ts) builds its tables when its module is evaluated:
 * an Intl.Segmenter (ICU's break data, 20–35 ms) and a \p{RGI_Emoji} regular expression (50–85 ms
 * to compile), so every CLI start paid 70–120 ms for them — about a tenth of a warm `check --cache`
 * over 5,000 packages — though only non-ASCII text is ever measured with it. In the CLI bundle its
 * module body runs on the first call instead: the imports stay on top, the rest becomes a function
 * run once. The source must have exactly that shape (imports, then one `export default function
 * stringWidth(`), or the build fails rather than bundle something else.
 */
const lazyStringWidth = {
  name: "lazy-string-width",
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]string-width[\\/]index\.js$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      const lines = source.split("\n");
      let at = 0;
      while (at < lines.length && (lines[at].startsWith("import ") || lines[at].trim() === "")) at++;
      const imports = lines.slice(0, at).join("\n");
      const body = lines.slice(at).join("\n");
      const marker = "export default function stringWidth(";
      if (body.split(marker).length !== 2 || /^\s*(import|export)\b/m.test(body.replace(marker, "")))
        throw new Error(
          `${args.path}: not the shape the lazy-string-width plugin expects; update scripts/bundle-cli.mjs`,
        );
      const contents = `${imports}\nlet stringWidthOnce;\nexport default function stringWidth(input, options) {\n  stringWidthOnce ??= (() => {\n${body.replace(marker, "function stringWidth(")}\nreturn stringWidth;\n})();\n  return stringWidthOnce(input, options);\n}\n`;
      return { contents, loader: "js" };
    });
  },
};
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
  plugins: [lazyStringWidth],
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
