/**
 * The process entry of the `yaoc` executable (bundled by scripts/bundle-cli.mjs). main.ts only
 * defines the program, so tests can build it in-process without running it.
 *
 * The worker script of `check --jobs` is a second entry next to this one: `check-worker.js` beside
 * bin.js when run from tsc's output, `check-worker.mjs` beside yaoc.mjs in the bundle. Only an entry
 * knows its own location (bundled shared code lives in chunks/), so it is found here.
 */
import { installNodeSha256 } from "../canonical/node-hash.js";
import { installNodeUtf8 } from "../syntax/node-decoder.js";
import { main } from "./main.js";

installNodeSha256();
installNodeUtf8();

const checkWorker = new URL(
  import.meta.url.endsWith(".mjs") ? "./check-worker.mjs" : "./check-worker.js",
  import.meta.url,
);
await main(process.argv, { checkWorker });
