/**
 * The machine's node numbering (src/eval/program-index.ts): a program's own numbering is built once
 * and shared by every index that holds it, and an admitted program placed after the root keeps
 * its own ids shifted by its offset, so a state written by one machine names the same nodes in
 * another.
 */
import { describe, expect, it } from "vitest";
import { ProgramIndex } from "../../src/eval/program-index.js";
import { startProgram } from "../../src/eval/index.js";
import { compile } from "./helpers.js";

describe("ProgramIndex", () => {
  const root = compile("(eval (seq (bind a 1) (add a 2)))");
  const child = compile("(eval (list 1 2 3))");

  it("numbers nodes in preorder and places a later program after the root", () => {
    const index = new ProgramIndex();
    index.add(root, root.source_hash);
    const rootSize = index.size;
    expect(rootSize).toBeGreaterThan(4);
    index.add(child, child.source_hash);
    expect(index.programs.map((p) => p.root)).toEqual([0, rootSize]);
    expect(index.node(0)).toBe(root.body);
    expect(index.node(rootSize)).toBe(child.body);
    expect(index.programOf(rootSize - 1).program).toBe(root);
    expect(index.programOf(rootSize).program).toBe(child);
    // The child's list node has its three elements as children, numbered right after it.
    expect(index.kids(rootSize)).toEqual([rootSize + 1, rootSize + 2, rootSize + 3]);
    expect(index.kids(rootSize).map((k) => index.node(k)?.kind.op)).toEqual(["literal", "literal", "literal"]);
    expect(index.node(index.size)).toBeUndefined();
    expect(index.node(-1)).toBeUndefined();
  });

  it("the same program indexed by two machines gives the same numbering, and the root's is shared", () => {
    const a = new ProgramIndex();
    const b = new ProgramIndex();
    a.add(root, root.source_hash);
    b.add(root, root.source_hash);
    expect(a.size).toBe(b.size);
    for (let id = 0; id < a.size; id++) {
      expect(a.node(id)).toBe(b.node(id));
      expect(a.kids(id)).toBe(b.kids(id));
    }
    // Placed after another program, the same program's ids move but its nodes do not.
    const c = new ProgramIndex();
    c.add(child, child.source_hash);
    c.add(root, root.source_hash);
    expect(c.node(c.programs[1]!.root)).toBe(root.body);
    expect(c.kids(c.programs[1]!.root)).toEqual(a.kids(0).map((k) => k + c.programs[1]!.root));
  });

  it("starting a program twice gives the same state bytes and value", () => {
    const one = startProgram(root);
    const two = startProgram(root);
    expect(one.result).toEqual({ outcome: "value", value: 3n });
    expect(two.state()).toBe(one.state());
  });
});
