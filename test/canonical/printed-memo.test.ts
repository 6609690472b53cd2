/**
 * The typed printer prints a list the reader built once: its text is kept on the node
 * (`ReadList.printed`) for the analysis and identity to ask again, and dies with the tree. Nodes
 * built any other way are printed each time they are asked for.
 */
import { describe, expect, it } from "vitest";
import { canonicalSource, canonicalSourceWithout } from "../../src/canonical/typed.js";
import { readOne } from "../../src/syntax/reader.js";
import type { ReadList, SList } from "../../src/syntax/tree.js";

function readList(text: string): ReadList {
  const r = readOne(text);
  if (!r.ok || r.form.kind !== "list") throw new Error(`not a list: ${text}`);
  return r.form as ReadList;
}

describe("the printed text of a read list", () => {
  it("is kept on the node after the first print and given back from there", () => {
    const list = readList('(fn  f ; note\n  (description """\n  two\n  lines\n""") (body (add 1   2)))');
    expect(list.printed).toBeUndefined();
    const text = canonicalSource(list);
    expect(text).toBe('(fn f (description "\\n  two\\n  lines\\n") (body (add 1 2)))');
    expect(list.printed).toBe(text);
    // What is kept is what is given back: a changed memo shows through, so it is really read.
    list.printed = "(kept)";
    expect(canonicalSource(list)).toBe("(kept)");
  });

  it("is kept by the walk that prints a list without some of its items, for the whole list", () => {
    const list = readList("(fn g (params) (body 1))");
    const { full, without } = canonicalSourceWithout(list, (item) => item.kind === "list" && item.items.length === 2);
    expect([full, without]).toEqual(["(fn g (params) (body 1))", "(fn g (params))"]);
    expect(list.printed).toBe(full);
  });

  it("is not kept for nodes the reader did not build", () => {
    const built: SList = {
      kind: "list",
      items: [{ kind: "symbol", name: "a", span: readList("(a)").span }],
      span: readList("(a)").span,
    };
    expect(canonicalSource(built)).toBe("(a)");
    expect("printed" in built).toBe(false);
  });
});
