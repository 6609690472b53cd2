/** The single-file `.hns` pipeline, in the reference's order (loader reference §3). */
import { checkContract } from "./contract.js";
import { START_OF_FILE } from "../diagnostics/diagnostic.js";
import { diagnostic } from "./codes.js";
import { didYouMean } from "../diagnostics/suggest.js";
import { headName, type SList, type SNode } from "../syntax/tree.js";
import { LoadFailure, type LoadContext } from "./context.js";
import { checkEntryTools, checkModuleBound, inspectEntryHeader } from "./entry-header.js";
import { parseFunctionArtifact } from "./function-artifact.js";
import { atomText, parseManifest } from "./manifest.js";
import type { HnsFunction, HnsPackage } from "./model.js";
import { normalizePackage } from "./normalize.js";
import { parseForms } from "./source-files.js";

const ARTIFACT_ROOTS = ["manifest", "contract", "mind", "fn", "eval", "infer"];

const ROOT_HINT =
  "a single-file package holds (manifest …), (contract …), optionally (mind …), any (fn …) and one (eval …) or (infer …)";

export function loadSingleFileBytes(ctx: LoadContext, bytes: Uint8Array, display: string, origin: string): HnsPackage {
  const forms = parseForms(ctx, bytes, display, "valid typed Yao");
  let manifest: SList | undefined;
  let contract: SList | undefined;
  let mind: SList | undefined;
  let entry: SList | undefined;
  const functions: HnsFunction[] = [];

  // Each artifact is checked on its own: an error in one is recorded and the others are still read.
  // Artifacts that are present but broken: not reported missing as well (one root cause, one error).
  const broken = new Set<string>();
  for (const form of forms) {
    if (form.kind !== "list") broken.add(atomText(form) ?? "");
    ctx.attempt(() => {
      const root = rootName(form, ctx);
      const list = form as SList;
      switch (root) {
        case "manifest":
        case "contract":
        case "mind": {
          const existing = root === "manifest" ? manifest : root === "contract" ? contract : mind;
          if (existing !== undefined)
            duplicateArtifact(ctx, `single-file .hns may contain only one (${root} ...)`, form, existing);
          if (root === "manifest") manifest = list;
          else if (root === "contract") contract = list;
          else mind = list;
          break;
        }
        case "fn": {
          const fn = parseFunctionArtifact(form, display, ctx);
          const first = functions.find((f) => f.name === fn.name);
          if (first !== undefined) {
            ctx.failAt(
              "hns.duplicate_fn",
              "single-file .hns declares the same fn name more than once",
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
          break;
        }
        case "eval":
        case "infer":
          if (entry !== undefined)
            duplicateArtifact(ctx, "single-file .hns may contain only one (eval/infer ...)", form, entry);
          entry = list;
          break;
        default:
          ctx.failAt(
            "hns.unknown_artifact",
            `single-file .hns contains unknown top-level artifact '(${root} ...)'; v1 accepts only manifest, contract, mind, fn, and eval/infer`,
            form,
            didYouMean(root, ARTIFACT_ROOTS) ?? ROOT_HINT,
            { label: "not an HNS artifact" },
          );
      }
    });
  }

  const stop = (): never => {
    throw new LoadFailure(ctx.errors.pop()!);
  };
  if (manifest === undefined) {
    if (broken.has("manifest")) stop();
    ctx.fail("hns.missing_artifact", "single-file .hns is missing (manifest ...)", { file: display, hint: ROOT_HINT });
  }
  const parsedManifest = parseManifest(manifest, ctx);
  if (contract === undefined && !broken.has("contract")) {
    ctx.errors.push(
      diagnostic("hns.missing_artifact", "single-file .hns is missing (contract ...)", {
        file: display,
        hint: ROOT_HINT,
      }),
    );
  }
  if (entry === undefined) {
    if (broken.has("eval") || broken.has("infer")) stop();
    ctx.fail("hns.missing_artifact", "single-file .hns is missing (eval ...) or (infer ...)", {
      file: display,
      hint: ROOT_HINT,
    });
  }

  const header = inspectEntryHeader(entry, ctx);
  ctx.attempt(() => checkEntryTools(header, parsedManifest, entry!, ctx));
  ctx.attempt(() => checkModuleBound(header, functions.length, entry!, ctx));
  // Last, so an error the reference reports stays the first one.
  if (contract !== undefined) checkContract(contract, ctx);

  return normalizePackage({
    form: "file",
    origin,
    manifest: parsedManifest,
    contract: contract ?? emptyArtifact(display),
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
  if (form.kind !== "list")
    ctx.failAt("hns.artifact_not_list", "Harness top-level artifact must be an S-expression list", form, ROOT_HINT);
  const head = form.items[0];
  if (head === undefined || head.kind === "list") {
    ctx.failAt("hns.wrong_root", "Harness top-level artifact is missing its root name", form, ROOT_HINT);
  }
  if (head.kind === "string") {
    // Reported, then read as the artifact it names, so it is not also reported missing.
    ctx.reportAt(
      "hns.wrong_root",
      `Harness top-level artifact root must be a symbol; found the string ${JSON.stringify(atomText(head))}`,
      head,
      `write (${head.value} …) without quotes around the root name`,
    );
    return head.value;
  }
  return headName(form)!;
}

/** The second of two single-cardinality artifacts, pointing back at the first. */
function duplicateArtifact(ctx: LoadContext, message: string, form: SNode, first: SNode): never {
  ctx.failAt("hns.duplicate_artifact", message, form, "keep one of them", {
    label: "a second one",
    related: [{ file: first.span.file, span: first.span, message: "the first one is here" }],
  });
}

/** Stands in for a missing (contract …) so the rest of the package can be checked; never valid. */
export function emptyArtifact(file: string): SList {
  return {
    kind: "list",
    items: [],
    span: { file, start: START_OF_FILE.start, end: START_OF_FILE.end },
  } as unknown as SList;
}
