/**
 * The host runtime table (§7.5.1), Node-only. `argv[0] = "node"` resolves to the Node that runs the
 * host; other names come from `runtimes.json` under the host root or from a short list of fixed
 * absolute locations. PATH is never searched: a bare name must not run whatever binary happens to
 * be first on the user's PATH.
 */
import { accessSync, constants, readFileSync, realpathSync } from "node:fs";
import { isAbsolute } from "node:path";

const FIXED_LOCATIONS: Record<string, readonly string[]> = {
  python: ["/usr/bin/python3", "/usr/local/bin/python3", "/opt/homebrew/bin/python3"],
  python3: ["/usr/bin/python3", "/usr/local/bin/python3", "/opt/homebrew/bin/python3"],
  deno: ["/usr/bin/deno", "/usr/local/bin/deno"],
  bun: ["/usr/bin/bun", "/usr/local/bin/bun"],
};

export interface RuntimeTable {
  /** Runtime name → absolute, canonical executable path (only entries that exist). */
  readonly entries: ReadonlyMap<string, string>;
  /** Problems with the configuration file, reported by `capabilities`. */
  readonly problems: readonly string[];
}

function executable(path: string): string | null {
  try {
    accessSync(path, constants.X_OK);
    return realpathSync(path);
  } catch {
    return null;
  }
}

export function loadRuntimeTable(configFile: string): RuntimeTable {
  const entries = new Map<string, string>();
  const problems: string[] = [];
  entries.set("node", realpathSync(process.execPath));
  for (const [name, paths] of Object.entries(FIXED_LOCATIONS)) {
    for (const p of paths) {
      const real = executable(p);
      if (real !== null) {
        entries.set(name, real);
        break;
      }
    }
  }
  let text: string | null = null;
  try {
    text = readFileSync(configFile, "utf8");
  } catch {
    // No configuration: defaults only.
  }
  if (text !== null) {
    try {
      const cfg = JSON.parse(text) as unknown;
      if (typeof cfg !== "object" || cfg === null || Array.isArray(cfg))
        throw new Error("expected an object of name → absolute path");
      for (const [name, p] of Object.entries(cfg as Record<string, unknown>)) {
        if (typeof p !== "string" || !isAbsolute(p)) {
          problems.push(`${configFile}: "${name}" must map to an absolute path`);
          continue;
        }
        const real = executable(p);
        if (real === null) problems.push(`${configFile}: "${name}" → ${p} is not an executable file`);
        else entries.set(name, real);
      }
    } catch (e) {
      problems.push(`${configFile}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return { entries, problems };
}
