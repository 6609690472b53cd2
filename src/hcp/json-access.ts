/** Small helpers for reading the pack documents and quoting their values in messages. */
import { pointerToken, type JsonMember, type JsonObject } from "./json-reader.js";
import type { JsonDoc } from "./report.js";

export function pointerOf(parent: string, key: string | number): string {
  return `${parent}/${typeof key === "number" ? key : pointerToken(key)}`;
}

export function member(obj: JsonObject, key: string): JsonMember | undefined {
  return obj.byKey.get(key);
}

/** Where a field lives, for messages: `surface.json /verbs/list`. */
export function at(doc: JsonDoc, pointer: string): string {
  return pointer === "" ? doc.name : `${doc.name} ${pointer}`;
}

/** Count Unicode scalars, which is what "characters" means in the pack model. */
export function scalarLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export function hasUpperCase(s: string): boolean {
  return s !== s.toLowerCase();
}

/** Quote a user value for a message, cut so one hostile value cannot flood the output. */
export function quote(s: string): string {
  const cut = scalarLength(s) > 80 ? `${[...s].slice(0, 80).join("")}…` : s;
  return JSON.stringify(cut);
}
