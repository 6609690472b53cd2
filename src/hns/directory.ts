/**
 * The directory `.hns` pipeline, in the reference's order (loader reference §4), with every file
 * required to be a regular file inside the package (H2, H3) and aggregate limits (H4).
 */
import { checkContract } from "./contract.js";
import { relativePathProblem } from "../fs/contained.js";
import { extensionOf, fileStem, isWithin } from "../fs/paths.js";
import { compareCodePoints } from "../canonical/package-identity.js";
import { FsError } from "../fs/package-fs.js";
import { displayName, UNDECODABLE_NAME_HINT, undecodableNameMessage } from "../fs/names.js";
import { undecodableNames } from "../fs/snapshot.js";
import type { SList, SNode } from "../syntax/tree.js";
import { LoadFailure, type LoadContext } from "./context.js";
import { checkEntryTools, checkModuleBound, inspectEntryHeader } from "./entry-header.js";
import { parseFunctionArtifact } from "./function-artifact.js";
import { parseManifest } from "./manifest.js";
import type { HnsFunction, HnsPackage } from "./model.js";
import { normalizePackage } from "./normalize.js";
import { emptyArtifact, rootName } from "./single-file.js";
import { containedFile, parseForms, parseOneForm, readBytes } from "./source-files.js";

export async function loadDirectory(
  ctx: LoadContext,
  realRoot: string,
  display: string,
  origin: string,
): Promise<HnsPackage> {
  const at = (rel: string): string => `${display}/${rel}`;

  // Every entry must have a name the identity can spell; one that is not UTF-8 is never skipped.
  const undecodable = await undecodableNames(ctx.fs, realRoot);
  if (undecodable.length > 0) {
    ctx.fail(
      "hns.non_utf8_name",
      `${undecodableNameMessage(undecodable[0]!)}${undecodable.length > 1 ? ` (and ${undecodable.length - 1} more)` : ""}`,
      {
        file: at(displayName(undecodable[0]!)),
        hint: UNDECODABLE_NAME_HINT,
      },
    );
  }

  const manifestForm = (await readMetadataArtifact(ctx, realRoot, "manifest.yao", at("manifest.yao"), "manifest"))!;
  const manifest = parseManifest(manifestForm as SList, ctx);
  if (manifest.entry === undefined) {
    // An (entry …) that is present but unreadable was reported; without a path there is nothing more to read.
    if ((manifestForm as SList).items.some((i) => i.kind === "list" && atomOf(i.items[0]) === "entry"))
      throw new LoadFailure(ctx.errors.pop()!);
    ctx.failAt(
      "hns.missing_field",
      'directory .hns manifest must declare (entry "relative-path")',
      manifestForm,
      'add (entry "programs/main.yao")',
    );
  }

  const entryRel = manifest.entry;
  const entryNode =
    (manifestForm as SList).items.find(
      (i) => i.kind === "list" && i.items[1] !== undefined && atomOf(i.items[0]) === "entry",
    ) ?? manifestForm;
  // The entry, the contract, the mind and each function are checked on their own: an error in one
  // is recorded and the others are still read.
  const entry = await ctx.attemptAsync(async () => {
    const problem = relativePathProblem(entryRel);
    if (entryRel.startsWith("/") || entryRel.split("/").includes("..")) {
      ctx.failAt(
        "hns.entry_escape",
        `Harness entry must stay within the package directory: ${JSON.stringify(entryRel)}`,
        entryNode,
        "use a path relative to the package root, without '..'",
      );
    }
    if (problem !== null)
      ctx.failAt(
        "hns.bad_entry_path",
        `Harness entry path ${JSON.stringify(entryRel)} is invalid: ${problem}`,
        entryNode,
      );
    if (extensionOf(entryRel) !== "yao") {
      ctx.failAt(
        "hns.bad_entry_path",
        `Harness entry path ${JSON.stringify(entryRel)} must name a .yao file`,
        entryNode,
        'name the entry program file, e.g. (entry "programs/main.yao")',
      );
    }
    const entryDisplay = at(entryRel);
    const entryFile = await containedFile(ctx, realRoot, entryRel, entryDisplay, {
      missing: {
        code: "hns.entry_not_found",
        message: `failed to resolve Harness entry ${entryDisplay}: no such file or directory`,
        namedAt: {
          node: entryNode,
          message: "the manifest names the entry here",
          hint: `create ${entryRel} in the package, or point (entry …) at the program file that exists`,
        },
      },
      escape: { code: "hns.entry_escape", message: `Harness entry escapes the package directory: ${entryDisplay}` },
    });
    const entryBytes = await readBytes(ctx, entryFile!.realPath, entryDisplay, entryFile!.size, "valid typed Yao");
    const entryForm = parseOneForm(ctx, entryBytes, entryDisplay, "valid typed Yao");
    const header = inspectEntryHeader(entryForm, ctx, entryDisplay);
    ctx.attempt(() => checkEntryTools(header, manifest, entryForm, ctx));
    return { form: entryForm, display: entryDisplay, header };
  });

  const contract = await ctx.attemptAsync(() =>
    readMetadataArtifact(ctx, realRoot, "contract.yao", at("contract.yao"), "contract"),
  );
  const mind = await ctx.attemptAsync(() =>
    readMetadataArtifact(ctx, realRoot, "mind.yao", at("mind.yao"), "mind", true),
  );
  const functions = await readFunctions(ctx, realRoot, display);
  if (entry === undefined) {
    // Nothing to analyse without an entry: report what was found.
    throw new LoadFailure(ctx.errors.pop()!);
  }
  ctx.attempt(() => checkModuleBound(entry.header, functions.length, entry.form, ctx));
  // Last, so an error the reference reports stays the first one.
  if (contract?.kind === "list") checkContract(contract, ctx);

  return normalizePackage({
    form: "directory",
    origin,
    manifest,
    contract: contract ?? emptyArtifact(at("contract.yao")),
    mind,
    functions,
    entryForm: entry.form,
    entryFile: entry.display,
    entryId: fileStem(entryRel),
    header: entry.header,
  });
}

function atomOf(n: SNode | undefined): string | undefined {
  return n?.kind === "symbol" ? n.name : n?.kind === "string" ? n.value : undefined;
}

/** manifest.yao / contract.yao / mind.yao: exactly one artifact with the expected root. */
async function readMetadataArtifact(
  ctx: LoadContext,
  realRoot: string,
  rel: string,
  display: string,
  expected: string,
  optional = false,
): Promise<SNode | undefined> {
  const file = await containedFile(ctx, realRoot, rel, display, {
    missing: {
      code: "hns.missing_artifact",
      message: `${display} is missing; a directory .hns needs ${rel} with one (${expected} ...) artifact`,
    },
    optional,
  });
  if (file === undefined) return undefined;
  const bytes = await readBytes(ctx, file.realPath, display, file.size, "valid Yao");
  const forms = parseForms(ctx, bytes, display, "valid Yao");
  if (forms.length !== 1) {
    ctx.fail(
      forms.length === 0 ? "hns.missing_artifact" : "hns.duplicate_artifact",
      `${display} must contain exactly one (${expected} ...) artifact`,
      {
        file: display,
        span: forms[1]?.span,
      },
    );
  }
  const form = forms[0]!;
  const root = rootName(form, ctx);
  if (root !== expected)
    ctx.failAt("hns.wrong_root", `${display} must have a (${expected} ...) root; found (${root} ...)`, form);
  return form;
}

async function readFunctions(ctx: LoadContext, realRoot: string, display: string): Promise<HnsFunction[]> {
  const dirDisplay = `${display}/functions`;
  const st = await ctx.fs.lstat(`${realRoot}/functions`);
  if (st === null) return [];
  let realDir: string;
  try {
    realDir = await ctx.fs.realpath(`${realRoot}/functions`);
  } catch (e) {
    ctx.fail(
      "hns.functions_not_directory",
      `Harness functions path must be a directory: ${dirDisplay} (${e instanceof FsError ? e.message : String(e)})`,
      { file: dirDisplay },
    );
  }
  if (!isWithin(realRoot, realDir)) {
    ctx.fail(
      "hns.functions_not_directory",
      `Harness functions path must be a directory inside the package: ${dirDisplay} resolves outside the package root`,
      {
        file: dirDisplay,
        hint: "replace the symbolic link with the directory itself",
      },
    );
  }
  if ((await ctx.fs.lstat(realDir))?.kind !== "directory") {
    ctx.fail("hns.functions_not_directory", `Harness functions path must be a directory: ${dirDisplay}`, {
      file: dirDisplay,
    });
  }
  const names = (await ctx.fs.readdir(realDir)).sort(compareCodePoints);
  if (names.length > ctx.limits.maxFunctionFiles) {
    ctx.fail(
      "hns.package_limit",
      `${dirDisplay} holds ${names.length} entries; the limit is ${ctx.limits.maxFunctionFiles} function files`,
      {
        file: dirDisplay,
      },
    );
  }
  const functions: HnsFunction[] = [];
  for (const name of names) {
    await ctx.attemptAsync(async () => {
      const fileDisplay = `${dirDisplay}/${name}`;
      if (extensionOf(name) !== "yao") {
        ctx.fail("hns.non_yao_function_file", `Harness functions directory accepts only .yao files: ${fileDisplay}`, {
          file: fileDisplay,
          hint: "move other files out of functions/",
        });
      }
      const rel = `functions/${name}`;
      const mustBeRegular = `Harness function must be a regular file inside the package: ${fileDisplay}`;
      const file = await containedFile(ctx, realRoot, rel, fileDisplay, {
        missing: { code: "hns.not_regular_file", message: mustBeRegular },
        escape: { code: "hns.file_escape", message: mustBeRegular },
        notRegular: { code: "hns.not_regular_file", message: mustBeRegular },
      });
      const bytes = await readBytes(ctx, file!.realPath, fileDisplay, file!.size, "a valid HNS function");
      const form = parseOneForm(ctx, bytes, fileDisplay, "a valid HNS function");
      const fn = parseFunctionArtifact(form, fileDisplay, ctx);
      const first = functions.find((f) => f.name === fn.name);
      if (first !== undefined) {
        ctx.failAt(
          "hns.duplicate_fn",
          "directory .hns declares the same fn name more than once",
          form,
          `rename one of the fn '${fn.name}' artifacts`,
          {
            label: `a second fn '${fn.name}'`,
            related: [
              { file: first.form.span.file, span: first.form.span, message: `the first fn '${fn.name}' is here` },
            ],
          },
        );
      }
      functions.push(fn);
    });
  }
  return functions;
}
