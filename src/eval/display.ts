/**
 * A value in Yao-like notation for people (`yaoc run` human output, the playground): `(list 1 2)`,
 * `(record Row (enabled true))`, `(some 7)`, `{a 1, b 2}` for structural records. Not a format to
 * read back; machines get the JSON value model.
 */
import { floatText } from "./value-text.js";
import { structuralFields, yaoTag, type Value } from "./values.js";

const MAX_DISPLAY = 100_000;

export function displayValue(v: Value): string {
  const out: string[] = [];
  let length = 0;
  const push = (s: string) => {
    out.push(s);
    length += s.length;
  };
  const go = (x: Value, depth: number): void => {
    if (length > MAX_DISPLAY) return;
    if (depth > 200) {
      push("…");
      return;
    }
    if (x === null) return push("nil");
    if (typeof x === "boolean") return push(x ? "true" : "false");
    if (typeof x === "bigint") return push(x.toString());
    if (typeof x === "number") return push(floatText(x));
    if (typeof x === "string") return push(JSON.stringify(x));
    if (Array.isArray(x)) {
      push("(list");
      for (const y of x) {
        push(" ");
        go(y, depth + 1);
      }
      return push(")");
    }
    const tag = yaoTag(x);
    const kind = tag?.get("kind");
    const fieldsOf = (f: Value | undefined) => {
      if (f instanceof Map)
        for (const [k, y] of f) {
          push(` (${k} `);
          go(y, depth + 1);
          push(")");
        }
    };
    if (tag !== undefined && (x as ReadonlyMap<string, Value>).size === 1) {
      switch (kind) {
        case "record":
          push(`(record ${String(tag.get("type"))}`);
          fieldsOf(tag.get("fields"));
          return push(")");
        case "variant":
          push(`(variant ${String(tag.get("type"))}.${String(tag.get("variant"))}`);
          fieldsOf(tag.get("fields"));
          return push(")");
        case "option":
        case "result": {
          const variant = String(tag.get("variant"));
          if (variant === "none") return push("(none)");
          push(`(${variant} `);
          go(tag.get("value") ?? null, depth + 1);
          return push(")");
        }
        case "structural_record": {
          const fields = structuralFields(x) ?? [];
          push("{");
          fields.forEach(([k, y], i) => {
            push(`${i > 0 ? ", " : ""}${k} `);
            go(y, depth + 1);
          });
          return push("}");
        }
        case "ref":
          return push(`(ref ${String(tag.get("ref_kind"))} ${JSON.stringify(String(tag.get("id")))})`);
        case "program":
          return push(`(program ${String(tag.get("hash"))})`);
      }
    }
    push("(dict");
    for (const [k, y] of x as ReadonlyMap<string, Value>) {
      push(` (${JSON.stringify(k)} `);
      go(y, depth + 1);
      push(")");
    }
    push(")");
  };
  go(v, 0);
  const s = out.join("");
  return length > MAX_DISPLAY ? `${s.slice(0, MAX_DISPLAY)}… (truncated)` : s;
}
