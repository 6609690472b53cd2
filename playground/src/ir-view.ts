/**
 * The Typed IR tab: `programJson`'s one-line JSON, pretty-printed with two-space indents, every
 * object and array a `<details>` that folds (open to FOLD_DEPTH, source spans folded, since they
 * are the bulk and the least read). The text of the tree is the JSON itself, so copying the panel
 * or reading its textContent gives JSON that parses to the same value.
 */

/** Objects and arrays deeper than this start folded. */
const FOLD_DEPTH = 4;

function line(text: string, indent: number): HTMLElement {
  const div = document.createElement("div");
  div.className = "line";
  div.textContent = `${"  ".repeat(indent)}${text}`;
  return div;
}

function node(value: unknown, key: string | undefined, indent: number, comma: boolean): HTMLElement {
  const prefix = key === undefined ? "" : `${JSON.stringify(key)}: `;
  const tail = comma ? "," : "";
  const isArray = Array.isArray(value);
  if (value === null || typeof value !== "object") return line(`${prefix}${JSON.stringify(value)}${tail}`, indent);
  const entries: [string | undefined, unknown][] = isArray
    ? (value as unknown[]).map((v) => [undefined, v])
    : Object.entries(value as Record<string, unknown>);
  const [open, close] = isArray ? ["[", "]"] : ["{", "}"];
  if (entries.length === 0) return line(`${prefix}${open}${close}${tail}`, indent);
  const details = document.createElement("details");
  details.open = indent < FOLD_DEPTH && key !== "span";
  const summary = document.createElement("summary");
  summary.textContent = `${"  ".repeat(indent)}${prefix}${open}`;
  summary.dataset["close"] = `${close}${tail}`;
  details.append(summary);
  entries.forEach(([k, v], i) => {
    details.append(node(v, k, indent + 1, i < entries.length - 1));
  });
  details.append(line(`${close}${tail}`, indent));
  return details;
}

/** Replace `into`'s content with the foldable tree of the JSON text `json`. */
export function showIr(into: HTMLElement, json: string): void {
  into.replaceChildren(node(JSON.parse(json), undefined, 0, false));
}
