/**
 * The built-in Yao expression operators (yao-v0.1.md §5.1 dispatch list) with their shapes, types,
 * meanings and examples, for hover, completion and signature help. They come from the language table
 * (src/yao/forms.ts), the same rows docs/language.md and `yaoc explain` print, so the editor and the
 * guide cannot disagree. The analyzer is the authority; the table describes it. Browser-safe.
 */
import { FORMS } from "../yao/forms.js";
import { RESERVED_TYPE_NAMES } from "../yao/types.js";
export interface OperatorInfo {
  readonly name: string;
  /** How the form is written. */
  readonly form: string;
  /** Its type rule, in Yao notation. */
  readonly type: string;
  /** What it means. */
  readonly meaning: string;
  /** A complete program using it. */
  readonly example: string;
}

const OPS: readonly OperatorInfo[] = FORMS.map((f) => ({
  name: f.name,
  form: f.signature,
  type: f.type,
  meaning: f.meaning,
  example: f.example,
}));

/** The hover text of an operator: its signature, meaning, type and example. */
export function operatorMarkdown(op: OperatorInfo): string {
  return `\`\`\`yao\n${op.form}\n\`\`\`\n${op.meaning}\n\nType: ${op.type}\n\nExample: \`${op.example}\``;
}

export const OPERATORS: ReadonlyMap<string, OperatorInfo> = new Map(OPS.map((o) => [o.name, o]));

/** Artifact and clause keywords (not expressions), for completion and highlighting. */
export const ARTIFACT_KEYWORDS: readonly string[] = [
  "manifest",
  "contract",
  "mind",
  "fn",
  "eval",
  "infer",
  "requires",
  "types",
  "tools",
  "params",
  "returns",
  "effects",
  "body",
  "visibility",
  "description",
  "capabilities",
  "entry",
];

/** Every built-in type name: the simple types and the type constructors (§3.2). */
export const BUILTIN_TYPES: readonly string[] = [...RESERVED_TYPE_NAMES];
