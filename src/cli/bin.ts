/**
 * The process entry of the `yaoc` executable (bundled by scripts/bundle-cli.mjs). main.ts only
 * defines the program, so tests can build it in-process without running it.
 */
import { main } from "./main.js";

await main(process.argv);
