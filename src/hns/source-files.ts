/** Reading package files: containment, size limits and parsing, with reference messages. */
import { diagnostic as readerDiagnostic } from "../syntax/codes.js";
import { describeKind, resolveContainedFile } from "../fs/contained.js";
import { FsError } from "../fs/package-fs.js";
import { exactlyOneForm, readAll, referenceDisplay } from "../syntax/reader.js";
import type { SNode } from "../syntax/tree.js";
import { LoadFailure, type LoadContext } from "./context.js";
import type { HNS_CODES } from "./codes.js";
import type { CodeWithSeverity } from "../diagnostics/codes.js";

/**
 * Read a file's bytes within the per-file and whole-package limits; the text is parsed by the caller.
 * `what` completes "{file} is not …" in the reference's wording for an oversized source.
 */
export async function readBytes(
  ctx: LoadContext,
  realPath: string,
  display: string,
  size: number,
  what: string,
): Promise<Uint8Array> {
  const { maxSourceBytes, maxPackageBytes } = ctx.limits;
  const tooLarge = (n: number | undefined): never => {
    const d = readerDiagnostic(
      "yao.source_limit",
      n === undefined
        ? `source is larger than the limit of ${maxSourceBytes} bytes`
        : `source contains ${n} bytes; the limit is ${maxSourceBytes}`,
      {
        file: display,
        span: { start: ORIGIN, end: ORIGIN },
        hint: `a Yao source holds at most ${maxSourceBytes} bytes (the source limit)${n === undefined ? "" : `; this file has ${n}`}: split it into functions/ files of a directory package, or move data out`,
      },
    );
    // The reference embeds its diagnostic's Debug form ("UnclosedList at 3:1: …"); people read the
    // reader's own words, and the span already says where.
    throw new LoadFailure({
      ...d,
      message: `${display} is not ${what}: ${d.message}`,
      referenceMessage: `${display} is not ${what}: ${referenceDisplay(d)}`,
    });
  };
  if (size > maxSourceBytes) tooLarge(size);
  if (ctx.bytesRead + size > maxPackageBytes) {
    ctx.fail("hns.package_limit", `package files exceed ${maxPackageBytes} bytes in total (at ${display})`, {
      file: display,
      hint: `a package's files hold at most ${maxPackageBytes} bytes in total (the package size limit); with ${display} they reach ${ctx.bytesRead + size}: a valid package is far smaller, so check for stray large files`,
    });
  }
  try {
    const bytes = await ctx.fs.readFile(realPath, maxSourceBytes);
    ctx.bytesRead += bytes.length;
    return bytes;
  } catch (e) {
    if (e instanceof FsError) {
      // The file grew between stat and read.
      if (e.code === "too_large") tooLarge(undefined);
      if (e.code === "not_regular_file")
        ctx.fail("hns.not_regular_file", `${display} is not a regular file: ${e.message}`, { file: display });
    }
    ctx.fail("hns.io_error", `failed to read ${display}: ${e instanceof Error ? e.message : String(e)}`, {
      file: display,
    });
  }
}

const ORIGIN = { byte: 0, line: 1, column: 1 };

/** Parse all forms; a reader error becomes `{prefix}: {reference display}` with the reader's code and span. */
export function parseForms(ctx: LoadContext, bytes: Uint8Array, display: string, what: string): SNode[] {
  const result = readAll(bytes, { file: display, maxBytes: ctx.limits.maxSourceBytes });
  if (result.text !== undefined) ctx.sources.set(display, result.text);
  if (!result.ok) {
    const d = result.diagnostic;
    // The reference embeds its diagnostic's Debug form ("UnclosedList at 3:1: …"); people read the
    // reader's own words, and the span already says where.
    throw new LoadFailure({
      ...d,
      message: `${display} is not ${what}: ${d.message}`,
      referenceMessage: `${display} is not ${what}: ${referenceDisplay(d)}`,
    });
  }
  return result.forms;
}

/** `parse_one` on a file: exactly one form, else the reader's empty/multiple diagnostics. */
export function parseOneForm(ctx: LoadContext, bytes: Uint8Array, display: string, what: string): SNode {
  const one = exactlyOneForm(parseForms(ctx, bytes, display, what), display);
  if ("form" in one) return one.form;
  throw new LoadFailure({
    ...one.diagnostic,
    message: `${display} is not ${what}: ${one.diagnostic.message}`,
    referenceMessage: `${display} is not ${what}: ${referenceDisplay(one.diagnostic)}`,
  });
}

export interface ContainedFile {
  readonly realPath: string;
  readonly size: number;
}

/** What to report for each way a package file can be unusable; unset cases get generic wording. */
export interface FileRole {
  readonly missing: {
    readonly code: CodeWithSeverity<typeof HNS_CODES, "error">;
    readonly message: string;
    /** Where the package names the file (the manifest's `(entry …)`): a note with a code frame. */
    readonly namedAt?: { readonly node: SNode; readonly message: string; readonly hint: string };
  };
  /** The file may be absent (mind.yao); a dangling symlink is still an error. */
  readonly optional?: boolean;
  readonly escape?: { readonly code: CodeWithSeverity<typeof HNS_CODES, "error">; readonly message: string };
  readonly notRegular?: { readonly code: CodeWithSeverity<typeof HNS_CODES, "error">; readonly message: string };
}

/**
 * A package file that must be a regular file inside the package: symlinks out of the package and
 * special files are rejected from metadata alone, before anything is opened.
 * Returns undefined when the file does not exist and the role is optional.
 */
export async function containedFile(
  ctx: LoadContext,
  realRoot: string,
  rel: string,
  display: string,
  role: FileRole,
): Promise<ContainedFile | undefined> {
  const r = await resolveContainedFile(ctx.fs, realRoot, rel);
  if (r.ok) return { realPath: r.realPath, size: r.stat.size };
  switch (r.reason) {
    case "not_found": {
      const dangling = (await ctx.fs.lstat(`${realRoot}/${rel}`)) !== null;
      if (role.optional && !dangling) return undefined;
      if (dangling) {
        ctx.fail(role.missing.code, `${display} is a symbolic link to a missing target`, {
          file: display,
          hint: "replace the link with the file itself",
        });
      }
      const named = role.missing.namedAt;
      ctx.fail(role.missing.code, role.missing.message, {
        file: display,
        ...(named === undefined
          ? {}
          : {
              hint: named.hint,
              related: [{ file: named.node.span.file, span: named.node.span, message: named.message }],
            }),
      });
    }
    case "escape":
      ctx.fail(
        role.escape?.code ?? "hns.file_escape",
        role.escape?.message ??
          `${display} must be a regular file inside the package; it resolves outside the package root`,
        { file: display, hint: "replace the symbolic link with the file itself" },
      );
    case "not_regular_file":
    case "loop":
      ctx.fail(
        role.notRegular?.code ?? "hns.not_regular_file",
        role.notRegular?.message ??
          (r.reason === "loop"
            ? `${display} is part of a symbolic link loop`
            : `${display} must be a regular file; it is a ${describeKind(r.kind ?? "other")}`),
        { file: display },
      );
    default:
      ctx.fail("hns.io_error", `failed to read ${display}: ${r.detail}`, { file: display });
  }
}
