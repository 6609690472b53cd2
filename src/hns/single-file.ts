/** The single-file `.hns` pipeline, in the reference's order (loader reference §3). */
import { headName, type SList, type SNode } from "../syntax/tree.js";
import type { LoadContext } from "./context.js";
import { checkEntryTools, checkModuleBound, inspectEntryHeader } from "./entry-header.js";
import { parseFunctionArtifact } from "./function-artifact.js";
import { atomText, parseManifest } from "./manifest.js";
import type { HnsFunction, HnsPackage } from "./model.js";
import { normalizePackage } from "./normalize.js";
import { parseForms } from "./source-files.js";

const ROOT_HINT = "a single-file package holds (manifest …), (contract …), optionally (mind …), any (fn …) and one (eval …) or (infer …)";

export function loadSingleFileBytes(ctx: LoadContext, bytes: Uint8Array, display: string, origin: string): HnsPackage {
  const forms = parseForms(ctx, bytes, display, "valid typed Yao");
  let manifest: SList | undefined;
  let contract: SList | undefined;
  let mind: SList | undefined;
  let entry: SList | undefined;
  const functions: HnsFunction[] = [];

  for (const form of forms) {
    const root = rootName(form, ctx);
    const list = form as SList;
    switch (root) {
      case "manifest":
      case "contract":
      case "mind": {
        const existing = root === "manifest" ? manifest : root === "contract" ? contract : mind;
        if (existing !== undefined) ctx.failAt("hns.duplicate_artifact", `single-file .hns may contain only one (${root} ...)`, form);
        if (root === "manifest") manifest = list;
        else if (root === "contract") contract = list;
        else mind = list;
        break;
      }
      case "fn": {
        const fn = parseFunctionArtifact(form, display, ctx);
        if (functions.some((f) => f.name === fn.name)) {
          ctx.failAt("hns.duplicate_fn", "single-file .hns declares the same fn name more than once", form, `rename one of the fn '${fn.name}' artifacts`);
        }
        functions.push(fn);
        break;
      }
      case "eval":
      case "infer":
        if (entry !== undefined) ctx.failAt("hns.duplicate_artifact", "single-file .hns may contain only one (eval/infer ...)", form);
        entry = list;
        break;
      default:
        ctx.failAt(
          "hns.unknown_artifact",
          `single-file .hns contains unknown top-level artifact '(${root} ...)'; v1 accepts only manifest, contract, mind, fn, and eval/infer`,
          form,
          ROOT_HINT,
        );
    }
  }

  if (manifest === undefined) ctx.fail("hns.missing_artifact", "single-file .hns is missing (manifest ...)", { file: display, hint: ROOT_HINT });
  const parsedManifest = parseManifest(manifest, ctx);
  if (contract === undefined) ctx.fail("hns.missing_artifact", "single-file .hns is missing (contract ...)", { file: display, hint: ROOT_HINT });
  if (entry === undefined) ctx.fail("hns.missing_artifact", "single-file .hns is missing (eval ...) or (infer ...)", { file: display, hint: ROOT_HINT });

  const header = inspectEntryHeader(entry, ctx);
  checkEntryTools(header, parsedManifest, entry, ctx);
  checkModuleBound(header, functions.length, entry, ctx);

  return normalizePackage({
    form: "file",
    origin,
    manifest: parsedManifest,
    contract,
    mind,
    functions,
    entryForm: entry,
    entryFile: display,
    entryId: parsedManifest.entry ?? "main",
    header,
  });
}

/**
 * The artifact's root name. The reference dispatches on the legacy view, where `("manifest" …)`
 * would count; yaoc requires a symbol (loader reference H9) so a string is never a root.
 */
export function rootName(form: SNode, ctx: LoadContext): string {
  if (form.kind !== "list") ctx.failAt("hns.artifact_not_list", "Harness top-level artifact must be an S-expression list", form, ROOT_HINT);
  const head = form.items[0];
  if (head === undefined || head.kind === "list") {
    ctx.failAt("hns.wrong_root", "Harness top-level artifact is missing its root name", form, ROOT_HINT);
  }
  if (head.kind === "string") {
    ctx.failAt(
      "hns.wrong_root",
      `Harness top-level artifact root must be a symbol; found the string ${JSON.stringify(atomText(head))}`,
      head,
      `write (${head.value} …) without quotes around the root name`,
    );
  }
  return headName(form)!;
}
