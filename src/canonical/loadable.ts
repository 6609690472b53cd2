/**
 * The loadable metadata encoding (yao-v0.1.md §2.3): how a normalized package is stored so that
 * the typed reader reloads it to the same identity. Not an identity text itself.
 */
import type { LegacyNode } from "./legacy.js";
import { quoteTyped } from "./typed.js";

const BARE_HEAD = /^[\p{Alphabetic}\p{N}_./-]+$/u;

/** Every atom becomes a typed string, except a list's first item when it is a plain word. */
export function printLoadable(node: LegacyNode): string {
  if (typeof node === "string") return quoteTyped(node);
  return `(${node
    .map((item, i) => (i === 0 && typeof item === "string" && BARE_HEAD.test(item) ? item : printLoadable(item)))
    .join(" ")})`;
}
