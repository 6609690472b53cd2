// The esbuild options shared by the bundles built for Node (the CLI in scripts/bundle-cli.mjs, the
// VS Code client in scripts/bundle-extension.mjs, the catalog tests' worker in
// test/catalog/helpers.ts). The browser bundle (scripts/build-browser.mjs) and the playground
// (playground/build.mjs) use esbuild too, with platform "browser". Names and whitespace are kept,
// so stack traces and the bundle stay readable (start-up is dominated by module count, not bytes);
// `minifySyntax` only folds constants and drops dead code, which keeps the bundles no larger than
// the vite builds they replace (issue 33: the bundle must not grow).
export const NODE_BUNDLE = {
  bundle: true,
  platform: "node",
  target: "node20",
  minifySyntax: true,
  sourcemap: false,
  legalComments: "none",
  logLevel: "warning",
};
