/**
 * OKF bundles on disk (reference §5.2 "package-time loading"): walk the bundle root through
 * `PackageFs` (links and special files rejected, maxFiles / maxExpandedBytes enforced while
 * walking), inspect, and compare with a contract (the manifest's `okf` block or a contract JSON).
 */
import type { Diagnostic, Position, Span } from "../../diagnostics/diagnostic.js";
import { diagnostic, type A3sCode } from "../codes.js";
import type { PackageFs } from "../../fs/package-fs.js";
import { joinPath } from "../../fs/paths.js";
import { displayName, isUndecodableName, UNDECODABLE_NAME_HINT, undecodableNameMessage } from "../../fs/names.js";
import { packageView } from "../../fs/snapshot.js";
import { CJsonError, parseStrictJson } from "../package/cjson.js";
import type { DigestFile } from "../package/digest.js";
import { referenceMessage } from "../messages.js";
import { inspectOkfBundleFiles, verifyInspection, type OkfError, type OkfInspection } from "./inspect.js";
import { limitsProblem, validateOkfContract, type OkfBundleContract, type OkfLimits } from "./contract.js";
import { TextPositions } from "../../diagnostics/text-positions.js";

const CODE_OF: Record<OkfError["code"], A3sCode> = {
  "use.okf.bundle_invalid": "a3s.okf.bundle_invalid",
  "use.okf.path_escape": "a3s.okf.path_escape",
  "use.okf.limit_exceeded": "a3s.okf.limit_exceeded",
  "use.okf.contract_invalid": "a3s.okf.contract_invalid",
  "use.okf.contract_mismatch": "a3s.okf.contract_mismatch",
};

const spanAt = (at: Position | undefined): Span | undefined => (at === undefined ? undefined : { start: at, end: at });

/**
 * `prefix` is where the bundle sits inside the package (for file names in diagnostics). The message
 * is the reference's sentence alone; what it leaves out (the offending target, the parser's
 * complaint) is the label under the caret. Our code `a3s.okf.X` is the reference's `use.okf.X`.
 */
export function okfErrorDiagnostic(e: OkfError, prefix: string): Diagnostic {
  const file = e.path !== undefined ? (prefix ? `${prefix}/${e.path}` : e.path) : prefix || undefined;
  return diagnostic(CODE_OF[e.code], e.message, { file, span: spanAt(e.at), label: e.detail });
}

export async function readOkfBundle(
  fs: PackageFs,
  dir: string,
  limits: OkfLimits,
  prefix = "",
): Promise<{ files: DigestFile[]; diagnostics: Diagnostic[] }> {
  const files: DigestFile[] = [];
  const diagnostics: Diagnostic[] = [];
  const at = (rel: string) => (prefix ? `${prefix}/${rel}` : rel);
  const root = await fs.lstat(dir);
  if (root === null || root.kind !== "directory") {
    return {
      files,
      diagnostics: [
        diagnostic(
          "a3s.okf.bundle_unreadable",
          referenceMessage(
            "use.extension.okf_bundle_invalid",
            `OKF bundle root '${prefix || dir}' is not a directory.`,
          ),
          { file: prefix || dir },
        ),
      ],
    };
  }
  let bytes = 0;
  const stack = [""];
  while (stack.length > 0) {
    const rel = stack.pop()!;
    let names: string[];
    try {
      names = (await fs.readdir(rel === "" ? dir : joinPath(dir, rel))).sort();
    } catch (e) {
      diagnostics.push(
        diagnostic(
          "a3s.okf.bundle_unreadable",
          `cannot list '${at(rel)}': ${e instanceof Error ? e.message : String(e)}`,
          { file: at(rel) },
        ),
      );
      continue;
    }
    for (const name of names) {
      const childRel = rel === "" ? name : `${rel}/${name}`;
      if (isUndecodableName(name)) {
        diagnostics.push(
          diagnostic("a3s.okf.non_utf8_name", undecodableNameMessage(childRel), {
            file: displayName(at(childRel)),
            hint: UNDECODABLE_NAME_HINT,
          }),
        );
      }
      const st = await fs.lstat(joinPath(dir, childRel));
      if (st === null) continue;
      if (st.kind === "directory") stack.push(childRel);
      else if (st.kind !== "file") {
        diagnostics.push(
          diagnostic(
            "a3s.okf.bundle_unreadable",
            referenceMessage(
              "use.extension.okf_bundle_invalid",
              `OKF bundle entry '${childRel}' is a ${st.kind}; bundles may hold only regular files.`,
            ),
            { file: at(childRel) },
          ),
        );
      } else {
        bytes += st.size;
        if (files.length + 1 > limits.maxFiles || bytes > limits.maxExpandedBytes) {
          diagnostics.push(
            okfErrorDiagnostic(
              {
                code: "use.okf.limit_exceeded",
                path: childRel,
                message: "The OKF bundle exceeds its declared conformance limits.",
              },
              prefix,
            ),
          );
          return { files, diagnostics };
        }
        try {
          files.push({ path: childRel, bytes: await fs.readFile(joinPath(dir, childRel), st.size + 1) });
        } catch (e) {
          diagnostics.push(
            diagnostic(
              "a3s.okf.bundle_unreadable",
              `cannot read '${at(childRel)}': ${e instanceof Error ? e.message : String(e)}`,
              { file: at(childRel) },
            ),
          );
        }
      }
    }
  }
  return { files, diagnostics };
}

export interface OkfCheck {
  inspection: OkfInspection | null;
  diagnostics: Diagnostic[];
}

/** Walk, inspect, and (when a contract is given) require an exact match. */
export async function checkOkfBundle(
  diskFs: PackageFs,
  dir: string,
  limits: OkfLimits,
  contract: OkfBundleContract | null,
  prefix = "",
): Promise<OkfCheck> {
  // A bundle checked on its own is read once into a snapshot; inside a package check it already is.
  const fs = await packageView(diskFs, dir);
  const read = await readOkfBundle(fs, dir, limits, prefix);
  if (read.diagnostics.length > 0) return { inspection: null, diagnostics: read.diagnostics };
  const r = inspectOkfBundleFiles(read.files, limits);
  if (!r.ok) return { inspection: null, diagnostics: r.errors.map((e) => okfErrorDiagnostic(e, prefix)) };
  const diagnostics: Diagnostic[] = r.inspection.diagnostics.map((d, i) =>
    diagnostic("a3s.okf.dangling_link", d.message, {
      file: prefix ? `${prefix}/${d.path}` : d.path,
      span: spanAt(r.locations?.[i]?.at),
      label: `'${d.target}' is not a file of the bundle`,
    }),
  );
  if (contract !== null) {
    const m = verifyInspection(contract, r.inspection);
    if (m !== null) diagnostics.unshift(okfErrorDiagnostic(m, prefix));
  }
  return { inspection: r.inspection, diagnostics };
}

const CONTRACT_FIELDS = [
  "schema",
  "formatVersion",
  "root",
  "contentDigest",
  "conceptCount",
  "fileCount",
  "expandedBytes",
  "limits",
];
const LIMIT_FIELDS = ["maxFiles", "maxConcepts", "maxExpandedBytes", "maxDocumentBytes", "maxLinksPerDocument"];

/**
 * `OkfBundleContract::from_json`: ≤128 KiB, unknown fields rejected, then §5.1 validation, in the
 * reference's words. A decoding failure names a line and column as serde_json does; ours is where
 * the offending key or the syntax error is (serde's column can differ by a few characters, see
 * docs/divergences.md), and what went wrong is the diagnostic's label.
 */
export function parseOkfContractJson(
  bytes: Uint8Array,
): { ok: true; contract: OkfBundleContract } | { ok: false; error: OkfError } {
  if (bytes.length === 0 || bytes.length > 128 * 1024)
    return {
      ok: false,
      error: {
        code: "use.okf.contract_invalid",
        message: "The OKF bundle contract exceeds its input bounds.",
        detail: `${bytes.length} bytes; the bound is 1 to 131072`,
      },
    };
  let text = "";
  const undecodable = (why: string, at: number): { ok: false; error: OkfError } => {
    // The one position module, counting lines as the reference does (LF only), so the sentence's
    // line and column are those of every code frame and output format.
    const where = new TextPositions(text, "lf").position(Math.max(0, Math.min(at, text.length)));
    const { line, column } = where;
    return {
      ok: false,
      error: {
        code: "use.okf.contract_invalid",
        message: `Failed to decode the OKF bundle contract at line ${line}, column ${column}.`,
        at: where,
        detail: why,
      },
    };
  };
  const keyAt = (key: string) => Math.max(0, text.indexOf(`"${key}"`));
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undecodable("the contract is not UTF-8", 0);
  }
  let v: unknown;
  try {
    v = parseStrictJson(text);
  } catch (e) {
    const why = e instanceof CJsonError || e instanceof Error ? e.message : String(e);
    const offset = /at offset (\d+)/.exec(why);
    return undecodable(why, offset ? Number(offset[1]) : 0);
  }
  const obj = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);
  if (!obj(v)) return undecodable("not a JSON object", 0);
  for (const k of Object.keys(v))
    if (!CONTRACT_FIELDS.includes(k)) return undecodable(`unknown field '${k}'`, keyAt(k));
  for (const k of CONTRACT_FIELDS) if (!(k in v)) return undecodable(`missing field '${k}'`, text.length);
  const l = v["limits"];
  if (!obj(l)) return undecodable("limits must be an object", keyAt("limits"));
  for (const k of Object.keys(l))
    if (!LIMIT_FIELDS.includes(k)) return undecodable(`unknown field 'limits.${k}'`, keyAt(k));
  for (const k of LIMIT_FIELDS) if (!(k in l)) return undecodable(`missing field 'limits.${k}'`, keyAt("limits"));
  for (const k of LIMIT_FIELDS)
    if (typeof l[k] !== "number" || !Number.isInteger(l[k]) || (l[k] as number) < 0)
      return undecodable(`limits.${k} must be an unsigned integer`, keyAt(k));
  for (const k of ["conceptCount", "fileCount", "expandedBytes"])
    if (typeof v[k] !== "number" || !Number.isInteger(v[k]) || (v[k] as number) < 0)
      return undecodable(`${k} must be an unsigned integer`, keyAt(k));
  for (const k of ["schema", "root", "contentDigest"])
    if (typeof v[k] !== "string") return undecodable(`${k} must be a string`, keyAt(k));
  // A3S Use accepts only OKF v0.2 (seed 004); '0.1' would decode there and then fail to match.
  if (v["formatVersion"] !== "0.2") return undecodable("formatVersion must be '0.2'", keyAt("formatVersion"));
  const contract = v as unknown as OkfBundleContract;
  const limits = limitsProblem(contract.limits);
  if (limits !== null) return { ok: false, error: { code: limits.code, message: limits.message } };
  if (contract.schema !== "a3s.use.okf-bundle.v1")
    return {
      ok: false,
      error: {
        code: "use.okf.contract_invalid",
        message: "The OKF bundle contract schema is unsupported.",
        detail: `schema '${contract.schema}'; expected 'a3s.use.okf-bundle.v1'`,
      },
    };
  const p = validateOkfContract(contract);
  if (p !== null) return { ok: false, error: { code: p.code, message: p.message } };
  return { ok: true, contract };
}
