/**
 * Cargo-flavoured SemVer, as the Rust `semver` crate 1.0.27 does it (reference §3.1): a bare
 * version in a requirement is a caret requirement, comparators are comma-separated, and error texts
 * are the crate's. npm's semantics differ (bare = exact, spaces, `||`), so this is written out here.
 * Numbers are bigint because the crate's are u64.
 */

export type Position =
  | "major version number"
  | "minor version number"
  | "patch version number"
  | "pre-release identifier"
  | "build metadata";

export interface Version {
  readonly major: bigint;
  readonly minor: bigint;
  readonly patch: bigint;
  readonly pre: string;
  readonly build: string;
}

export type Op = "=" | ">" | ">=" | "<" | "<=" | "~" | "^" | "*";

export interface Comparator {
  readonly op: Op;
  readonly major: bigint;
  readonly minor: bigint | null;
  readonly patch: bigint | null;
  readonly pre: string;
}

export interface VersionReq {
  readonly comparators: readonly Comparator[];
}

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

class SemverError extends Error {}

const U64_MAX = (1n << 64n) - 1n;
const MAX_COMPARATORS = 32;

function charDebug(c: string): string {
  return c === "'" ? "'\\''" : c === "\\" ? "'\\\\'" : `'${c}'`;
}

function firstChar(s: string): string | undefined {
  const cp = s.codePointAt(0);
  return cp === undefined ? undefined : String.fromCodePoint(cp);
}

function numeric(input: string, pos: Position): [bigint, string] {
  let len = 0;
  let value = 0n;
  while (len < input.length) {
    const c = input.charCodeAt(len);
    if (c < 48 || c > 57) break;
    if (value === 0n && len > 0) throw new SemverError(`invalid leading zero in ${pos}`);
    value = value * 10n + BigInt(c - 48);
    if (value > U64_MAX) throw new SemverError(`value of ${pos} exceeds u64::MAX`);
    len++;
  }
  if (len > 0) return [value, input.slice(len)];
  const c = firstChar(input);
  if (c !== undefined) throw new SemverError(`unexpected character ${charDebug(c)} while parsing ${pos}`);
  throw new SemverError(`unexpected end of input while parsing ${pos}`);
}

function dot(input: string, pos: Position): string {
  if (input.startsWith(".")) return input.slice(1);
  const c = firstChar(input);
  if (c !== undefined) throw new SemverError(`unexpected character ${charDebug(c)} after ${pos}`);
  throw new SemverError(`unexpected end of input while parsing ${pos}`);
}

function identifier(input: string, pos: Position): [string, string] {
  let acc = 0;
  let seg = 0;
  let nondigit = false;
  for (;;) {
    const c = input[acc + seg];
    if (c !== undefined && /[A-Za-z-]/.test(c)) {
      seg++;
      nondigit = true;
    } else if (c !== undefined && c >= "0" && c <= "9") {
      seg++;
    } else {
      if (seg === 0) {
        if (acc === 0 && c !== ".") return ["", input];
        throw new SemverError(`empty identifier segment in ${pos}`);
      }
      if (pos === "pre-release identifier" && seg > 1 && !nondigit && input[acc] === "0") {
        throw new SemverError(`invalid leading zero in ${pos}`);
      }
      acc += seg;
      if (c === ".") {
        acc++;
        seg = 0;
        nondigit = false;
      } else {
        return [input.slice(0, acc), input.slice(acc)];
      }
    }
  }
}

function wrap<T>(f: () => T): Parsed<T> {
  try {
    return { ok: true, value: f() };
  } catch (e) {
    if (e instanceof SemverError) return { ok: false, error: e.message };
    throw e;
  }
}

export function parseVersion(text: string): Parsed<Version> {
  return wrap(() => {
    if (text === "") throw new SemverError("empty string, expected a semver version");
    let pos: Position = "major version number";
    let [major, rest] = numeric(text, pos);
    rest = dot(rest, pos);
    pos = "minor version number";
    const [minor, r2] = numeric(rest, pos);
    rest = dot(r2, pos);
    pos = "patch version number";
    const [patch, r3] = numeric(rest, pos);
    rest = r3;
    let pre = "";
    let build = "";
    if (rest.startsWith("-")) {
      pos = "pre-release identifier";
      [pre, rest] = identifier(rest.slice(1), pos);
      if (pre === "") throw new SemverError(`empty identifier segment in ${pos}`);
    }
    if (rest.startsWith("+")) {
      pos = "build metadata";
      [build, rest] = identifier(rest.slice(1), pos);
      if (build === "") throw new SemverError(`empty identifier segment in ${pos}`);
    }
    const c = firstChar(rest);
    if (c !== undefined) throw new SemverError(`unexpected character ${charDebug(c)} after ${pos}`);
    return { major, minor, patch, pre, build };
  });
}

function wildcard(input: string): [string, string] | null {
  const c = input[0];
  return c === "*" || c === "x" || c === "X" ? [c, input.slice(1)] : null;
}

function op(input: string): [Op, string] | null {
  for (const o of [">=", "<=", "=", ">", "<", "~", "^"] as const)
    if (input.startsWith(o)) return [o, input.slice(o.length)];
  return null;
}

function trimSpaces(s: string): string {
  let i = 0;
  while (s[i] === " ") i++;
  return s.slice(i);
}

function comparator(input: string): [Comparator, Position, string] {
  const o = op(input);
  let theOp: Op = o === null ? "^" : o[0];
  const defaultOp = o === null;
  let text = trimSpaces(o === null ? input : o[1]);
  let pos: Position = "major version number";
  const [major, r1] = numeric(text, pos);
  text = r1;
  let hasWildcard = false;
  let minor: bigint | null = null;
  let patch: bigint | null = null;
  if (text.startsWith(".")) {
    text = text.slice(1);
    pos = "minor version number";
    const w = wildcard(text);
    if (w !== null) {
      hasWildcard = true;
      if (defaultOp) theOp = "*";
      text = w[1];
    } else {
      [minor, text] = numeric(text, pos);
    }
  }
  if (text.startsWith(".")) {
    text = text.slice(1);
    pos = "patch version number";
    const w = wildcard(text);
    if (w !== null) {
      if (defaultOp) theOp = "*";
      text = w[1];
    } else if (hasWildcard) {
      throw new SemverError("unexpected character after wildcard in version req");
    } else {
      [patch, text] = numeric(text, pos);
    }
  }
  let pre = "";
  if (patch !== null && text.startsWith("-")) {
    pos = "pre-release identifier";
    [pre, text] = identifier(text.slice(1), pos);
    if (pre === "") throw new SemverError(`empty identifier segment in ${pos}`);
  }
  if (patch !== null && text.startsWith("+")) {
    pos = "build metadata";
    let build: string;
    [build, text] = identifier(text.slice(1), pos);
    if (build === "") throw new SemverError(`empty identifier segment in ${pos}`);
  }
  return [{ op: theOp, major, minor, patch, pre }, pos, trimSpaces(text)];
}

export function parseVersionReq(input: string): Parsed<VersionReq> {
  return wrap(() => {
    const text = trimSpaces(input);
    const w = wildcard(text);
    if (w !== null) {
      const rest = trimSpaces(w[1]);
      if (rest === "") return { comparators: [] };
      if (rest.startsWith(","))
        throw new SemverError(`wildcard req (${w[0]}) must be the only comparator in the version req`);
      throw new SemverError("unexpected character after wildcard in version req");
    }
    const comparators: Comparator[] = [];
    let rest = text;
    for (;;) {
      let parsed: [Comparator, Position, string];
      try {
        parsed = comparator(rest);
      } catch (e) {
        const wc = wildcard(rest);
        if (e instanceof SemverError && wc !== null) {
          const after = trimSpaces(wc[1]);
          if (after === "" || after.startsWith(","))
            throw new SemverError(`wildcard req (${wc[0]}) must be the only comparator in the version req`);
        }
        throw e;
      }
      const [cmp, pos, after] = parsed;
      comparators.push(cmp);
      if (after === "") return { comparators };
      if (!after.startsWith(","))
        throw new SemverError(`expected comma after ${pos}, found ${charDebug(firstChar(after)!)}`);
      if (comparators.length === MAX_COMPARATORS) throw new SemverError("excessive number of version comparators");
      rest = trimSpaces(after.slice(1));
    }
  });
}

export function formatVersion(v: Version): string {
  return `${v.major}.${v.minor}.${v.patch}${v.pre ? `-${v.pre}` : ""}${v.build ? `+${v.build}` : ""}`;
}

export function formatComparator(c: Comparator): string {
  if (c.op === "*") return c.minor === null ? `${c.major}.*` : `${c.major}.${c.minor}.*`;
  let s = `${c.op}${c.major}`;
  if (c.minor !== null) s += `.${c.minor}`;
  if (c.patch !== null) s += `.${c.patch}`;
  if (c.pre) s += `-${c.pre}`;
  return s;
}

export function formatVersionReq(r: VersionReq): string {
  return r.comparators.length === 0 ? "*" : r.comparators.map(formatComparator).join(", ");
}

/** Pre-release precedence; the empty pre-release (a release) ranks above every pre-release. */
export function comparePre(a: string, b: string): number {
  if (a === b) return 0;
  if (a === "") return 1;
  if (b === "") return -1;
  const as = a.split(".");
  const bs = b.split(".");
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    const x = as[i]!;
    const y = bs[i]!;
    if (x === y) continue;
    const xn = /^[0-9]+$/.test(x);
    const yn = /^[0-9]+$/.test(y);
    if (xn && yn) return x.length !== y.length ? x.length - y.length : x < y ? -1 : 1;
    if (xn) return -1;
    if (yn) return 1;
    return x < y ? -1 : 1;
  }
  return as.length - bs.length;
}

function cmpBig(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** SemVer precedence, then build metadata as the Rust type's final tie-break. */
export function compareVersions(a: Version, b: Version): number {
  return (
    cmpBig(a.major, b.major) ||
    cmpBig(a.minor, b.minor) ||
    cmpBig(a.patch, b.patch) ||
    comparePre(a.pre, b.pre) ||
    (a.build === b.build ? 0 : a.build < b.build ? -1 : 1)
  );
}

function exact(c: Comparator, v: Version): boolean {
  if (v.major !== c.major) return false;
  if (c.minor !== null && v.minor !== c.minor) return false;
  if (c.patch !== null && v.patch !== c.patch) return false;
  return v.pre === c.pre;
}

function greater(c: Comparator, v: Version): boolean {
  if (v.major !== c.major) return v.major > c.major;
  if (c.minor === null) return false;
  if (v.minor !== c.minor) return v.minor > c.minor;
  if (c.patch === null) return false;
  if (v.patch !== c.patch) return v.patch > c.patch;
  return comparePre(v.pre, c.pre) > 0;
}

function less(c: Comparator, v: Version): boolean {
  if (v.major !== c.major) return v.major < c.major;
  if (c.minor === null) return false;
  if (v.minor !== c.minor) return v.minor < c.minor;
  if (c.patch === null) return false;
  if (v.patch !== c.patch) return v.patch < c.patch;
  return comparePre(v.pre, c.pre) < 0;
}

function tilde(c: Comparator, v: Version): boolean {
  if (v.major !== c.major) return false;
  if (c.minor !== null && v.minor !== c.minor) return false;
  if (c.patch !== null && v.patch !== c.patch) return v.patch > c.patch;
  return comparePre(v.pre, c.pre) >= 0;
}

function caret(c: Comparator, v: Version): boolean {
  if (v.major !== c.major) return false;
  if (c.minor === null) return true;
  const minor = c.minor;
  if (c.patch === null) return c.major > 0n ? v.minor >= minor : v.minor === minor;
  const patch = c.patch;
  if (c.major > 0n) {
    if (v.minor !== minor) return v.minor > minor;
    if (v.patch !== patch) return v.patch > patch;
  } else if (minor > 0n) {
    if (v.minor !== minor) return false;
    if (v.patch !== patch) return v.patch > patch;
  } else if (v.minor !== minor || v.patch !== patch) {
    return false;
  }
  return comparePre(v.pre, c.pre) >= 0;
}

export function comparatorMatches(c: Comparator, v: Version): boolean {
  switch (c.op) {
    case "=":
    case "*":
      return exact(c, v);
    case ">":
      return greater(c, v);
    case ">=":
      return exact(c, v) || greater(c, v);
    case "<":
      return less(c, v);
    case "<=":
      return exact(c, v) || less(c, v);
    case "~":
      return tilde(c, v);
    case "^":
      return caret(c, v);
  }
}

export function reqMatches(r: VersionReq, v: Version): boolean {
  if (!r.comparators.every((c) => comparatorMatches(c, v))) return false;
  if (v.pre === "") return true;
  // A pre-release matches only when some comparator names the same x.y.z with a pre-release.
  return r.comparators.some((c) => c.major === v.major && c.minor === v.minor && c.patch === v.patch && c.pre !== "");
}

/** Convenience for callers holding strings; unparsable inputs never match. */
export function matchesText(req: string, version: string): boolean {
  const r = parseVersionReq(req);
  const v = parseVersion(version);
  return r.ok && v.ok && reqMatches(r.value, v.value);
}
