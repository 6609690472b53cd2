/**
 * Lexical scopes (yao-v0.1.md §5.3). Bindings are immutable; branches analyse in a copy so their
 * bindings do not escape, while `seq` steps share one scope.
 */
import type { YaoType } from "../../ir/yao-ir-0.1.js";

export const RUNTIME_BINDING = "runtime";

/**
 * The last scope built, kept until the next is built (a shape no live object has is collected at a
 * full collection, and the optimised analysis with it: see `treeBuilder` in syntax/reader.ts).
 */
const kept: { scope?: Scope } = {};

export class Scope {
  private constructor(
    private readonly vars: Map<string, YaoType>,
    /** Type of the implicit `runtime`, when visible here (root and function scopes only). */
    private readonly implicitRuntime: YaoType | undefined,
  ) {
    kept.scope = this;
  }

  static root(runtime: YaoType | undefined): Scope {
    return new Scope(new Map(), runtime);
  }

  /** An infer body sees only its captures: no implicit `runtime`. */
  static captures(bindings: Iterable<[string, YaoType]>): Scope {
    return new Scope(new Map(bindings), undefined);
  }

  lookup(name: string): YaoType | undefined {
    return this.vars.get(name) ?? (name === RUNTIME_BINDING ? this.implicitRuntime : undefined);
  }

  /** Every name visible here, for did-you-mean. */
  names(): string[] {
    return this.implicitRuntime === undefined ? [...this.vars.keys()] : [...this.vars.keys(), RUNTIME_BINDING];
  }

  has(name: string): boolean {
    return this.lookup(name) !== undefined;
  }

  copy(): Scope {
    return new Scope(new Map(this.vars), this.implicitRuntime);
  }

  bind(name: string, ty: YaoType): void {
    this.vars.set(name, ty);
  }
}
