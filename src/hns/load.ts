/**
 * Loading an HNS package (HNS §11 steps 1–7, 9–10): path dispatch, the single-file or directory
 * pipeline, normalization and identity. Type analysis (step 8) is layered on top in check.ts.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { orderDiagnostics } from "../diagnostics/order.js";
import { describeKind } from "../fs/contained.js";
import { FsError, type PackageFs } from "../fs/package-fs.js";
import { extensionOf } from "../fs/paths.js";
import { packageView } from "../fs/snapshot.js";
import { DEFAULT_LOAD_LIMITS, LoadContext, LoadFailure, type LoadLimits } from "./context.js";
import { loadDirectory } from "./directory.js";
import type { HnsPackage } from "./model.js";
import { loadSingleFileBytes } from "./single-file.js";
import { readBytes } from "./source-files.js";

export interface LoadOptions {
  readonly limits?: Partial<LoadLimits>;
}

export type LoadResult =
  | {
      readonly ok: true;
      readonly package: HnsPackage;
      readonly warnings: readonly Diagnostic[];
      readonly sources: ReadonlyMap<string, string>;
    }
  | {
      readonly ok: false;
      /** Every independent error and the warnings, by file and position (diagnostics/order.ts). */
      readonly diagnostics: readonly Diagnostic[];
      /**
       * The first error in the reference's detection order: the one the fail-fast reference
       * reports. Not shown first (diagnostics are in position order); the conformance tests
       * compare it with the reference.
       */
      readonly firstError: Diagnostic;
      readonly sources: ReadonlyMap<string, string>;
      /** The package could not be read at all (missing path, I/O failure): a usage/I/O error. */
      readonly ioError: boolean;
      /**
       * When the errors left the entry and functions readable: the package as far as it could be
       * read (placeholders for broken parts), so the module analysis can still check every function
       * and the entry. Never valid and never given an identity.
       */
      readonly partial?: HnsPackage;
    };

const IO_CODES = new Set(["hns.not_found", "hns.io_error"]);

/**
 * The structural load of an HNS package (HNS §11 steps 1–7, 9–10): reading, artifacts, manifest,
 * entry header, identity. It does not type-check function bodies or the entry, so `ok: true` does
 * not mean admissible: to admit a package, use `check` (src/check), which runs what `yaoc check`
 * runs, module analysis included.
 */
export async function loadPackage(diskFs: PackageFs, path: string, options: LoadOptions = {}): Promise<LoadResult> {
  const display = path.length > 1 ? path.replace(/\/+$/, "") : path;
  // Read the package once into a snapshot (when the file system can take one); everything below —
  // and the identity, the catalog object and receipts built from the result — comes from it.
  // Files the loader would reject by size are recorded by size only, never read.
  const limits = { ...DEFAULT_LOAD_LIMITS, ...options.limits };
  const fs =
    extensionOf(display) === "hns"
      ? await packageView(diskFs, display, {
          maxFileBytes: limits.maxSourceBytes,
          maxTotalBytes: Math.max(64 * 1024 * 1024, limits.maxPackageBytes),
        })
      : diskFs;
  const ctx = new LoadContext(fs, limits);
  return run(ctx, async () => {
    if (extensionOf(display) !== "hns") {
      ctx.fail("hns.bad_suffix", `Harness package must use the .hns suffix: ${display}`, {
        file: display,
        hint: "name the package file or directory NAME.hns",
      });
    }
    const st = await statOrFail(ctx, display);
    if (st.kind !== "file" && st.kind !== "directory") {
      ctx.fail(
        "hns.not_regular_file",
        `Harness package must be a regular file or a directory: ${display} is a ${describeKind(st.kind)}`,
        {
          file: display,
        },
      );
    }
    const realPath = await fs.realpath(display).catch((e: unknown) =>
      ctx.fail("hns.io_error", `failed to read ${display}: ${e instanceof Error ? e.message : String(e)}`, {
        file: display,
      }),
    );
    if (st.kind === "directory") return loadDirectory(ctx, realPath, display, display);
    const bytes = await readBytes(ctx, realPath, display, st.size, "valid typed Yao");
    return loadSingleFileBytes(ctx, bytes, display, display);
  });
}

/** The reference's `from_source(name, text)`: the single-file pipeline on text in memory. */
export function loadFromSource(name: string, source: string | Uint8Array, options: LoadOptions = {}): LoadResult {
  const ctx = new LoadContext(nullFs, { ...DEFAULT_LOAD_LIMITS, ...options.limits });
  const bytes = typeof source === "string" ? new TextEncoder().encode(source) : source;
  try {
    if (extensionOf(name) !== "hns")
      ctx.fail("hns.bad_suffix", `Harness package must use the .hns suffix: ${name}`, { file: name });
    return settled(ctx, loadSingleFileBytes(ctx, bytes, name, name));
  } catch (e) {
    return failed(ctx, e);
  }
}

async function run(ctx: LoadContext, body: () => Promise<HnsPackage>): Promise<LoadResult> {
  try {
    return settled(ctx, await body());
  } catch (e) {
    return failed(ctx, e);
  }
}

/** A package was assembled; it is valid only when no error was recorded on the way. */
function settled(ctx: LoadContext, pkg: HnsPackage): LoadResult {
  if (ctx.errors.length === 0)
    return { ok: true, package: pkg, warnings: ctx.reportedWarnings(pkg.origin), sources: ctx.sources };
  return { ...failure(ctx, ctx.errors), partial: pkg };
}

function failed(ctx: LoadContext, e: unknown): LoadResult {
  if (!(e instanceof LoadFailure)) throw e;
  return failure(ctx, [...ctx.errors, e.diagnostic]);
}

function failure(ctx: LoadContext, errors: readonly Diagnostic[]): LoadResult & { ok: false } {
  return {
    ok: false,
    diagnostics: orderDiagnostics([...ctx.reportedWarnings(errors[0]!.file ?? ""), ...errors]),
    firstError: errors[0]!,
    sources: ctx.sources,
    ioError: IO_CODES.has(errors[0]!.code),
  };
}

async function statOrFail(ctx: LoadContext, display: string) {
  try {
    const st = await ctx.fs.stat(display);
    if (st !== null) return st;
  } catch (e) {
    if (!(e instanceof FsError)) throw e;
    ctx.fail("hns.io_error", `failed to read ${display}: ${e.message}`, { file: display });
  }
  if ((await ctx.fs.lstat(display).catch(() => null)) !== null) {
    ctx.fail(
      "hns.not_regular_file",
      `Harness package ${display} is a symbolic link that does not resolve (dangling, or a loop)`,
      {
        file: display,
        hint: "point the link at the package, or use the package path itself",
      },
    );
  }
  ctx.fail("hns.not_found", `Harness package does not exist or is not a file/directory: ${display}`, {
    file: display,
    hint: "check the path",
  });
}

const nullFs: PackageFs = {
  lstat: async () => null,
  stat: async () => null,
  realpath: async (p) => p,
  readdir: async () => [],
  readFile: async (p) => {
    throw new FsError("not_found", p, `${p}: in-memory source has no files`);
  },
};
