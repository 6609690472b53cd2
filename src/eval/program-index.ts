/**
 * The nodes of a linked program by position. Linked function bodies are shared objects in memory
 * but separate copies once read back from IR JSON, so a node is named by its preorder position in
 * the fully linked tree (the tree `yaoc ir` prints), never by object identity: the same program
 * gives the same numbers however it was built. Programs admitted later are appended after it.
 *
 * A program's own numbering is built once and kept beside the program object (a WeakMap, so it
 * goes when the program goes), and shared by every machine that runs it: it is never written
 * after it is built. Indexing on every start cost O(program size) per start, and because the
 * index was young memory that stayed live for the whole run, every scavenge during the run copied
 * it again, which made the cost of a step grow with the size of the program (bench o-step).
 */
import type { HirExpr, YaoProgram } from "../../ir/yao-ir-0.1.js";
import { hirChildren } from "../yao/hir-children.js";

export interface IndexedProgram {
  readonly program: YaoProgram;
  readonly hash: string;
  /** The id of the program body. */
  readonly root: number;
}

/** One program's nodes in preorder, numbered from 0 (its body). Immutable once built. */
interface ProgramNodes {
  readonly nodes: readonly HirExpr[];
  readonly kids: readonly (readonly number[])[];
}

const numbered = new WeakMap<YaoProgram, ProgramNodes>();

function number(program: YaoProgram): ProgramNodes {
  const known = numbered.get(program);
  if (known !== undefined) return known;
  const nodes: HirExpr[] = [];
  const kids: number[][] = [];
  // Preorder with an explicit stack: ids are assigned when a node is first reached, children in order.
  const stack: [HirExpr, number][] = [[program.body, -1]];
  while (stack.length > 0) {
    const [node, parent] = stack.pop()!;
    const id = nodes.length;
    nodes.push(node);
    kids.push([]);
    if (parent >= 0) kids[parent]!.push(id);
    const children = hirChildren(node);
    for (let i = children.length - 1; i >= 0; i--) stack.push([children[i]!, id]);
  }
  const built: ProgramNodes = { nodes, kids };
  numbered.set(program, built);
  return built;
}

/** A program's nodes placed at `offset` in a machine's numbering. */
interface Part {
  readonly offset: number;
  readonly end: number;
  readonly nodes: readonly HirExpr[];
  /** Children as machine ids (the shared local numbering shifted by `offset`). */
  readonly kids: readonly (readonly number[])[];
}

export class ProgramIndex {
  readonly programs: IndexedProgram[] = [];
  private readonly parts: Part[] = [];
  /** The number of nodes of every program together: the next program starts here. */
  size = 0;

  add(program: YaoProgram, hash: string): number {
    const p = this.programs.length;
    const root = this.size;
    const own = number(program);
    // Only an admitted program (never the root) sits at an offset; its shifted copy is its own.
    const kids = root === 0 ? own.kids : own.kids.map((ks) => ks.map((k) => k + root));
    this.parts.push({ offset: root, end: root + own.nodes.length, nodes: own.nodes, kids });
    this.size += own.nodes.length;
    this.programs.push({ program, hash, root });
    return p;
  }

  private part(id: number): number {
    // The root program comes first and holds almost every node a machine visits.
    if (id < this.parts[0]!.end) return id >= 0 ? 0 : -1;
    for (let i = 1; i < this.parts.length; i++) if (id < this.parts[i]!.end) return i;
    return -1;
  }

  /** The node with this id, or undefined when there is none (a state naming a node that is not there). */
  node(id: number): HirExpr | undefined {
    const i = this.part(id);
    if (i < 0) return undefined;
    const part = this.parts[i]!;
    return part.nodes[id - part.offset];
  }

  /** The children of node `id`, as ids; the caller knows `id` exists. */
  kids(id: number): readonly number[] {
    const part = this.parts[this.part(id)]!;
    return part.kids[id - part.offset]!;
  }

  programOf(id: number): IndexedProgram {
    return this.programs[this.part(id)]!;
  }
}
