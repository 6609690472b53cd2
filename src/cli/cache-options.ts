/**
 * The result cache's options, shared by the commands that check packages: `check`, `hash` and
 * `golden freeze|verify` (the cache itself: check-cached.ts, src/cache).
 */
import { resolve } from "node:path";
import { type Command, InvalidArgumentError, Option } from "commander";
import { DEFAULT_CACHE_MAX_MIB } from "../cache/node-store.js";
import type { CacheSettings } from "./check-command.js";

/** The result cache's options, shared by `check`, `hash` and `golden` (src/cli/check-cached.ts). */
export interface CacheCliOptions {
  cache?: boolean;
  cacheDir?: string;
  cacheMaxMib: number;
}

/** Add `--cache`, `--cache-dir` and `--cache-max-mib` to `cmd`, whose results are those of `what`. */
export function addCacheOptions(cmd: Command, what: string): Command {
  return cmd
    .option(
      "--cache",
      `reuse results of ${what} whose bytes, names and modes did not change (kept in .yaoc-cache/); output is identical`,
    )
    .option("--cache-dir <dir>", "where --cache keeps its entries (implies --cache; default .yaoc-cache)")
    .addOption(
      new Option("--cache-max-mib <n>", "prune least recently used cache entries past this many MiB")
        .argParser(parseMib)
        .default(DEFAULT_CACHE_MAX_MIB),
    );
}

/** `{ cache }` when the options (or `implied`, as `--watch` does) ask for the cache, else `{}`. */
export function cacheSettingsOf(opts: CacheCliOptions, implied = false): { cache?: CacheSettings } {
  return opts.cache === true || opts.cacheDir !== undefined || implied
    ? { cache: { dir: resolve(opts.cacheDir ?? ".yaoc-cache"), maxBytes: opts.cacheMaxMib * 1024 * 1024 } }
    : {};
}

function parseMib(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1)
    throw new InvalidArgumentError("expected a whole number >= 1");
  return n;
}
