/**
 * Rename (with prepareRename) of functions, parameters, bindings, declared types, variants and
 * fields, through the package's symbol index: every occurrence with the same key changes, across the
 * files of a directory package, so a function's callers and a parameter's named arguments follow.
 * Refused, with a sentence saying why, when the cursor is not on a package's own name, or the new
 * name is not a Yao identifier (yao-v0.1.md §3.2), is a built-in or a tool, or collides with a name
 * the renamed one would meet. Every rename changes the package identity (names enter the canonical
 * text), and the result says so. Browser-safe.
 */
import { RESERVED_FUNCTION_NAMES } from "../yao/expressions.js";
import { isIdentifier } from "../yao/text.js";
import { ARTIFACT_KEYWORDS, BUILTIN_TYPES, OPERATORS } from "./operators.js";
import { packageView } from "./package-index.js";
import { NO_PAUSE, type Pause, REQUEST_SLICE } from "./pause.js";
import type { Occurrence, SymbolIndex } from "./symbol-index.js";
import type { Workspace } from "./workspace.js";
import type { LspPosition, LspRange, YaoDocument } from "./yao-document.js";

export interface TextEdit {
  readonly range: LspRange;
  readonly newText: string;
}

export interface RenamePlan {
  /** Edits by file path, each list in source order. */
  readonly edits: ReadonlyMap<string, readonly TextEdit[]>;
  /** What the rename does to the package, for the editor to show with the edit. */
  readonly note: string;
}

export type Refusal = { readonly refused: string };

const RENAMEABLE = new Set(["function", "parameter", "binding", "type", "field", "variant"]);
const CONSTANTS = new Set(["nil", "true", "false", "runtime"]);

const WHAT: Record<string, string> = {
  function: "function",
  parameter: "parameter",
  binding: "binding",
  type: "type",
  field: "field",
  variant: "variant",
};

/** The name under the cursor and its range, or why it cannot be renamed. */
export async function prepareRename(
  workspace: Workspace,
  path: string,
  position: LspPosition,
  pause: Pause = NO_PAUSE,
): Promise<{ range: LspRange; placeholder: string } | Refusal> {
  const target = await targetAt(workspace, path, position, pause);
  if ("refused" in target) return target;
  const doc = await workspace.document(path);
  return { range: doc.lines.range(target.occurrence.from, target.occurrence.to), placeholder: target.occurrence.name };
}

/**
 * The edits of a rename, made from the index like references: in slices of `REQUEST_SLICE`
 * occurrences with a `pause` between them, so a rename of thousands of uses gives way to other
 * requests and stops at the next slice when cancelled.
 */
export async function rename(
  workspace: Workspace,
  path: string,
  position: LspPosition,
  newName: string,
  pause: Pause = NO_PAUSE,
): Promise<RenamePlan | Refusal> {
  const target = await targetAt(workspace, path, position, pause);
  if ("refused" in target) return target;
  const { occurrence, index } = target;
  const what = WHAT[occurrence.category]!;
  if (newName === occurrence.name) return { edits: new Map(), note: "the name is unchanged" };
  const invalid = invalidName(newName, occurrence, index);
  if (invalid !== undefined) return { refused: invalid };
  const clash = collision(newName, occurrence, index);
  if (clash !== undefined) return { refused: clash };
  const edits = new Map<string, TextEdit[]>();
  const found = index.byKey.get(occurrence.key!) ?? [];
  let file: { path: string; doc: YaoDocument; edits: TextEdit[] } | undefined;
  for (let i = 0; i < found.length; i++) {
    if (i > 0 && i % REQUEST_SLICE === 0) await pause();
    const o = found[i]!;
    if (file?.path !== o.file) {
      const doc = await workspace.document(o.file);
      file = { path: o.file, doc, edits: edits.get(o.file) ?? edits.set(o.file, []).get(o.file)! };
    }
    file.edits.push({ range: file.doc.lines.range(o.from, o.to), newText: newName });
  }
  const count = [...edits.values()].reduce((n, e) => n + e.length, 0);
  const files = edits.size === 1 ? "1 file" : `${edits.size} files`;
  return {
    edits,
    note: `Renames ${what} '${occurrence.name}' to '${newName}' (${count} occurrence${count === 1 ? "" : "s"} in ${files}). The package identity changes: names are part of its canonical text, so its sha256 identity and program_hash differ after this rename.`,
  };
}

async function targetAt(
  workspace: Workspace,
  path: string,
  position: LspPosition,
  pause: Pause,
): Promise<{ occurrence: Occurrence; index: SymbolIndex } | Refusal> {
  const doc = await workspace.document(path);
  const { index } = await packageView(workspace, path, pause);
  const occurrence = index.at(path, doc.lines.offsetAt(position));
  if (occurrence === undefined)
    return {
      refused:
        "Nothing to rename here: put the cursor on the name of a function, parameter, binding, type, variant or field.",
    };
  const name = occurrence.name;
  if (occurrence.category === "tool")
    return {
      refused: `'${name}' is a tool: its name comes from the tool's host and the manifest's (capabilities (tools …)), so the package cannot rename it.`,
    };
  if (occurrence.builtin || !RENAMEABLE.has(occurrence.category))
    return { refused: `'${name}' is built into Yao and cannot be renamed.` };
  if (occurrence.key === undefined)
    return {
      refused: `'${name}' does not refer to a declaration the package makes (it may be misspelled, or the package does not check yet), so there is nothing to rename consistently.`,
    };
  return { occurrence, index };
}

/** Why `name` cannot be the new name of the occurrence's symbol, or undefined. */
function invalidName(name: string, o: Occurrence, index: SymbolIndex): string | undefined {
  if (!isIdentifier(name))
    return `'${name}' is not a valid Yao name: a name starts with a letter or '_' and continues with letters, digits, '_' or '-', with no dots or spaces (yao-v0.1.md §3.2).`;
  if (OPERATORS.has(name) || RESERVED_FUNCTION_NAMES.has(name) || ARTIFACT_KEYWORDS.includes(name))
    return `'${name}' is a built-in Yao name (an operator or keyword); choose another name.`;
  if (BUILTIN_TYPES.includes(name)) return `'${name}' is a built-in Yao type; choose another name.`;
  if (CONSTANTS.has(name)) return `'${name}' is a built-in Yao value; choose another name.`;
  if (index.tools.includes(name) || index.byKey.has(`tool:${name}`))
    return `'${name}' is a tool of this package; a ${WHAT[o.category]} named like a tool would be read as the tool. Choose another name.`;
  return undefined;
}

/** The existing symbol the renamed one would collide with, or undefined. */
function collision(name: string, o: Occurrence, index: SymbolIndex): string | undefined {
  const key = o.key!;
  switch (o.category) {
    case "function":
      return index.functions.has(name) ? `A function named '${name}' already exists in this package.` : undefined;
    case "type":
      return index.types.has(name) ? `A type named '${name}' already exists in this package.` : undefined;
    case "field": {
      const owner = key.slice("field:".length, key.lastIndexOf("."));
      const fields = owner.includes(".") ? index.variantFields.get(owner) : index.recordFields.get(owner);
      return fields?.includes(name) ? `'${owner}' already has a field named '${name}'.` : undefined;
    }
    case "variant": {
      const owner = key.slice("variant:".length, key.lastIndexOf("."));
      return index.variantFields.has(`${owner}.${name}`)
        ? `Union '${owner}' already has a variant named '${name}'.`
        : undefined;
    }
    default: {
      // A parameter or binding: refuse when any binder of the same top-level form already uses the
      // name, since the renamed one could then shadow it or be shadowed (bindings are immutable, §5.3).
      const form = formOf(o, index);
      for (const other of index.byFile.get(o.file) ?? []) {
        if (!other.declaration || other.name !== name) continue;
        if (other.category !== "parameter" && other.category !== "binding") continue;
        if (formOf(other, index) === form)
          return `'${name}' is already bound in this ${form.startsWith("fn:") ? `function '${form.slice(3)}'` : "program"}; renaming '${o.name}' to it would make one hide the other.`;
      }
      if (o.category === "parameter") {
        const fn = key.split(":")[1]!;
        if (index.byKey.has(`param:${fn}:${name}`)) return `Function '${fn}' already has a parameter named '${name}'.`;
      }
      return undefined;
    }
  }
}

/** The top-level form (a function by name, or the program) an occurrence is written in. */
function formOf(o: Occurrence, index: SymbolIndex): string {
  for (const fn of index.functions.values())
    if (fn.doc.path === o.file && fn.form.from <= o.from && o.to <= fn.form.to) return `fn:${fn.name}`;
  return `program:${o.file}`;
}
