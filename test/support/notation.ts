/**
 * Issue 34, item 2: what a person must never read in a message, help, note or hover — Rust `Debug`
 * forms (`Named("Ticket")`, `EffectSet({…})`, `List(Int)`), reader token names (`UnclosedList at
 * 3:1`), absolute paths. test/diagnostics/notation.test.ts shows that each pattern catches what it
 * is meant to and leaves Yao notation alone.
 */
export const INTERNAL_NOTATION: readonly (readonly [RegExp, string])[] = [
  [/\b(?:Named|Ref|Tool|Host)\("/, "a Rust Debug type or effect"],
  [/\bEffectSet\(\{/, "a Rust Debug effect set"],
  [/\b(?:List|Map|Option)\((?:[A-Z]|\))/, "a Rust Debug type constructor"],
  [/\bResult \{ ok: |\bProgram \{ output: |\bStructuralRecord\(/, "a Rust Debug record"],
  [/\b(?:Infer|Program)\(EffectSet/, "a Rust Debug effect"],
  [/\b[A-Z][a-z]+(?:[A-Z][a-z]+)+ at \d+:\d+/, "a reader token name with its position"],
  [/(?:^|[\s'(])\/(?:tmp|work|home|root|usr|var|Users)\//, "an absolute path"],
  [/\b(?:Ref|Map|List)<[A-Z]/, "a generic written the Rust way"],
];

/** What of INTERNAL_NOTATION `text` shows (empty when it is all Yao notation). */
export function problems(text: string | undefined): string[] {
  if (text === undefined) return [];
  return INTERNAL_NOTATION.filter(([re]) => re.test(text)).map(([, what]) => what);
}
