// `npm run package:vscode`: the VS Code extension as a .vsix that brings its own language server.
// It bundles the client (scripts/bundle-extension.mjs), copies the bundled CLI (dist/bundle, built
// by `npm run build`) into editors/vscode/server/, and packages with @vscode/vsce (3.9 runs on
// Node 20; nothing is published). Prints the path of the .vsix: dist/vscode/yao-yaoc-VERSION.vsix.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const ext = `${root}editors/vscode/`;
const bundle = `${root}dist/bundle/`;
if (!existsSync(`${bundle}yaoc.mjs`)) {
  process.stderr.write("package:vscode: dist/bundle/yaoc.mjs is missing; run `npm run build` first\n");
  process.exit(2);
}
execFileSync(process.execPath, [`${root}scripts/bundle-extension.mjs`], { stdio: "inherit" });
rmSync(`${ext}server`, { recursive: true, force: true });
cpSync(bundle, `${ext}server`, { recursive: true });
const { version } = JSON.parse(readFileSync(`${ext}package.json`, "utf8"));
mkdirSync(`${root}dist/vscode`, { recursive: true });
const vsix = `${root}dist/vscode/yao-yaoc-${version}.vsix`;
execFileSync(
  process.execPath,
  [
    `${root}node_modules/@vscode/vsce/vsce`,
    "package",
    "--no-dependencies",
    "--allow-missing-repository",
    "--skip-license",
    "-o",
    vsix,
  ],
  { cwd: ext, stdio: ["ignore", "ignore", "inherit"] },
);
process.stdout.write(`${vsix}\n`);
