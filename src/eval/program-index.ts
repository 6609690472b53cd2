/**
 * The nodes of a linked program by position. Linked function bodies are shared objects in memory
 * but separate copies once read back from IR JSON, so a node is named by its preorder position in
 * the fully linked tree (the tree `yaoc ir` prints), never by object identity: the same program
 * gives the same numbers however it was built. Programs admitted later are appended after it.
 */
import type { HirExpr, YaoProgram } from "../../ir/yao-ir-0.1.js";
import { hirChildren } from "../yao/hir-children.js";

export interface IndexedProgram {
  readonly program: YaoProgram;
  readonly hash: string;
  /** The id of the program body. */
  readonly root: number;
}

export class ProgramIndex {
  readonly nodes: HirExpr[] = [];
  readonly kids: number[][] = [];
  /** Which program (index into `programs`) each node belongs to. */
  readonly owner: number[] = [];
  readonly programs: IndexedProgram[] = [];

  add(program: YaoProgram, hash: string): number {
    const p = this.programs.length;
    const root = this.nodes.length;
    // Preorder with an explicit stack: ids are assigned when a node is first reached, children in order.
    const stack: [HirExpr, number][] = [[program.body, -1]];
    while (stack.length > 0) {
      const [node, parent] = stack.pop()!;
      const id = this.nodes.length;
      this.nodes.push(node);
      this.kids.push([]);
      this.owner.push(p);
      if (parent >= 0) this.kids[parent]!.push(id);
      const children = hirChildren(node);
      for (let i = children.length - 1; i >= 0; i--) stack.push([children[i]!, id]);
    }
    this.programs.push({ program, hash, root });
    return p;
  }

  programOf(id: number): IndexedProgram {
    return this.programs[this.owner[id]!]!;
  }
}
