/**
 * The manifest secret scan (HARP §9.4, §17 Author 5): one row per rule, in the order they are tried,
 * each documented in docs/harp.md ("Secret scan") and tested with a flagged case and a near miss in
 * test/harp/secret-scan.test.ts. A finding names only the kind of secret, never the text, so no
 * message, hint or label built from it can echo the secret.
 *
 * Every rule runs on attacker text (any string of a manifest up to 1 MiB), so each is linear: a
 * pattern's unbounded run is either its end (greedy, nothing after it to backtrack for) or cannot
 * overlap the next place the pattern can start; where that cannot be written as a regular
 * expression (a JSON Web Token, a run of exactly 40 base64 characters) the rule is a one-pass
 * scanner. The 1 MiB inputs of test/harp/secret-scan.test.ts are built to make each rule backtrack.
 */

/** What was found: a kind of secret for the message ("the value looks like …"). */
export interface SecretFinding {
  /** The rule's row name in docs/harp.md. */
  readonly rule: string;
  /** Completes "the value looks like …" / "member "x" holds …". */
  readonly what: string;
  /** What made it a secret: the value's shape, the member's name, or an assignment inside the value. */
  readonly by: "value" | "name" | "assignment";
}

/** A value that names where a secret comes from instead of holding one: `$VAR`, `<…>`, `{{…}}`, `%VAR%`. */
const PLACEHOLDER = /^[$<{%]/;

interface ValueRule {
  readonly rule: string;
  readonly what: string;
  readonly test: (s: string) => boolean;
}

const re = (r: RegExp) => (s: string) => r.test(s);

/** Rules on the value alone (wherever it appears, argv included). */
const VALUE_RULES: readonly ValueRule[] = [
  { rule: "PEM private key", what: "a PEM private key", test: re(/-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----/) },
  { rule: "AWS access key id", what: "an AWS access key id", test: re(/\b(AKIA|ASIA)[0-9A-Z]{16}\b/) },
  { rule: "AWS secret access key", what: "an AWS secret access key", test: hasAwsSecretShape },
  { rule: "GitHub token", what: "a GitHub token", test: re(/\bgh[pousr]_[A-Za-z0-9]{30,}/) },
  { rule: "GitHub fine-grained token", what: "a GitHub token", test: re(/\bgithub_pat_[A-Za-z0-9_]{20,}/) },
  { rule: "GitLab token", what: "a GitLab token", test: re(/\bglpat-[A-Za-z0-9_-]{20,}/) },
  { rule: "Hugging Face token", what: "a Hugging Face token", test: re(/\bhf_[A-Za-z0-9]{30,}/) },
  { rule: "sk- API key", what: "an API secret key", test: re(/\bsk-[A-Za-z0-9_-]{20,}/) },
  { rule: "Slack token", what: "a Slack token", test: re(/\bxox[abprs]-[A-Za-z0-9-]{10,}/) },
  { rule: "Google API key", what: "a Google API key", test: re(/\bAIza[0-9A-Za-z_-]{35}\b/) },
  { rule: "JSON Web Token", what: "a JSON Web Token", test: looksLikeJwt },
  { rule: "Bearer credentials", what: "an HTTP Bearer credential", test: hasBearerCredential },
  { rule: "Basic credentials", what: "an HTTP Basic credential", test: hasBasicCredential },
  { rule: "credentials in a URL", what: "a URL with a password in it", test: hasUrlPassword },
];

/** Members whose value is a password whatever its length (HARP §9.4: no password ships in a manifest). */
const PASSWORD_NAME = /(^|[^a-z])(pass(word|wd|phrase))($|[^a-z])/i;
/** Other members whose value is a secret when it is a run of at least 8 non-space characters. */
const SECRET_NAME =
  /(^|[^a-z])(secret|token|bearer|api[-_]?key|apikey|private[-_]?key|access[-_]?key|credentials?|auth[-_]?key)($|[^a-z])/i;
/** Words of a member name under which a random-looking value is a key (`signingKey`, `hmac_key`, `auth`). */
const KEY_WORDS: ReadonlySet<string> = new Set([
  "key",
  "keys",
  "auth",
  "authorization",
  "cookie",
  "session",
  "signature",
  "hmac",
  "salt",
]);
/** `password=…` / `passwd: …` inside a value: any non-placeholder value. Bounded runs only. */
const PASSWORD_ASSIGNMENT = /(^|[^a-z])(pass(word|wd|phrase))[ \t]{0,8}[=:][ \t]{0,8}[^\s$<{%]/i;
/** `token=…`, `secret: …`, `api_key=…` inside a value: at least 8 non-space characters. */
const SECRET_ASSIGNMENT = /(secret|token|api[-_]?key|apikey)[ \t]{0,8}[=:][ \t]{0,8}[^\s$<{%]{8}/i;

/** The first rule `s` (the value of member `memberName`, when it is one) matches, or null. */
export function findSecret(s: string, memberName?: string): SecretFinding | null {
  for (const r of VALUE_RULES) if (r.test(s)) return { rule: r.rule, what: r.what, by: "value" };
  if (memberName !== undefined && s !== "" && !PLACEHOLDER.test(s)) {
    if (PASSWORD_NAME.test(memberName)) return { rule: "password-named member", what: "a password", by: "name" };
    if (SECRET_NAME.test(memberName) && s.length >= 8 && !/\s/.test(s))
      return { rule: "other secret-named member", what: "a secret value", by: "name" };
    if (nameWords(memberName).some((w) => KEY_WORDS.has(w)) && isRandomLooking(s))
      return { rule: "random-looking value under a key-named member", what: "a secret key", by: "name" };
  }
  if (PASSWORD_ASSIGNMENT.test(s))
    return { rule: "password assignment in a value", what: "a password", by: "assignment" };
  if (SECRET_ASSIGNMENT.test(s)) return { rule: "secret assignment in a value", what: "a secret", by: "assignment" };
  return null;
}

/** `signingKey`, `hmac_key`, `x-auth.Cookie` → ["signing", "key"], ["hmac", "key"], ["x", "auth", "cookie"]. */
export function nameWords(name: string): string[] {
  return name
    .slice(0, 256)
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "");
}

/** Shannon entropy of `s` in bits per character. */
export function entropyBits(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  const n = Array.from(s).length;
  let h = 0;
  for (const k of counts.values()) {
    const p = k / n;
    h -= p * Math.log2(p);
  }
  return h;
}

/**
 * A value that looks generated rather than written: one run of at least 16 token characters that,
 * without its `-`, `_` and `.` separators, is either hexadecimal with letters and digits (≥ 3 bits
 * per character: keys, UUIDs) or mixes lower case, upper case and digits (≥ 3.5 bits per character).
 * Names written by people (`notes-primary-storage`, `production-signing-key-2024`) are neither.
 */
export function isRandomLooking(s: string): boolean {
  if (s.length < 16 || s.length > 4096 || !/^[A-Za-z0-9+/=_.~-]+$/.test(s)) return false;
  const t = s.replace(/[-_.]/g, "");
  if (t.length < 16 || !/[0-9]/.test(t)) return false;
  if (/^[0-9a-f]+$/.test(t) || /^[0-9A-F]+$/.test(t)) return /[A-Fa-f]/.test(t) && entropyBits(t) >= 3;
  return /[a-z]/.test(t) && /[A-Z]/.test(t) && entropyBits(t) >= 3.5;
}

function isBase64Char(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x2b || c === 0x2f;
}

/**
 * An AWS secret access key: a run of exactly 40 of `[A-Za-z0-9+/]` (not part of a longer base64 or
 * `=`-padded run) with upper case, lower case and digits and ≥ 4 bits per character. A 40-digit hex
 * SHA-1 (one case) is not one. One pass over the runs.
 */
function hasAwsSecretShape(s: string): boolean {
  const n = s.length;
  let i = 0;
  while (i < n) {
    if (!isBase64Char(s.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    while (i < n && isBase64Char(s.charCodeAt(i))) i++;
    if (i - start === 40 && s.charCodeAt(i) !== 0x3d) {
      const run = s.slice(start, i);
      if (/[a-z]/.test(run) && /[A-Z]/.test(run) && /[0-9]/.test(run) && entropyBits(run) >= 4) return true;
    }
  }
  return false;
}

/** `Bearer <token>` (RFC 6750) with at least 8 token characters, a digit among them; `Bearer $TOKEN` is a placeholder. */
function hasBearerCredential(s: string): boolean {
  const r = /\bbearer[ \t]{1,8}([A-Za-z0-9._~+/-]{8,})/gi;
  for (let m = r.exec(s); m !== null; m = r.exec(s)) if (/[0-9]/.test(m[1]!)) return true;
  return false;
}

/** `Basic <base64 of user:password>` (RFC 7617): the credential must decode to printable text with a colon. */
function hasBasicCredential(s: string): boolean {
  const r = /\bbasic[ \t]{1,8}([A-Za-z0-9+/]{4,}={0,2})(?![A-Za-z0-9+/=])/gi;
  for (let m = r.exec(s); m !== null; m = r.exec(s)) {
    const b64 = m[1]!;
    if (b64.length % 4 !== 0 || b64.length > 4096) continue;
    let decoded: string;
    try {
      decoded = atob(b64);
    } catch {
      continue;
    }
    if (/^[\x20-\x7e]*:[\x20-\x7e]+$/.test(decoded)) return true;
  }
  return false;
}

/** `scheme://user:password@host` with a non-empty password that is not a placeholder (`:${DB_PASSWORD}@`). */
function hasUrlPassword(s: string): boolean {
  const r = /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,31}:\/\/[^\s/?#@:]*:([^\s/?#@]+)@/g;
  for (let m = r.exec(s); m !== null; m = r.exec(s)) if (!PLACEHOLDER.test(m[1]!)) return true;
  return false;
}

/** A JWT segment character (base64url). */
function isJwtChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2d;
}

function isWordChar(c: number): boolean {
  return isJwtChar(c) && c !== 0x2d;
}

/**
 * Whether `s` contains what `\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}` matches (a
 * JSON Web Token: base64url of `{"…` and two more dot-separated segments), in one pass. Segments are
 * the maximal base64url runs; a token starts at a word-boundary `eyJ` of one segment and needs at
 * least 8 characters after `eyJ` to the segment's end, then two following segments of at least 8,
 * each joined by exactly one dot. Only the earliest such `eyJ` of a segment matters (it leaves the
 * most characters after it).
 */
export function looksLikeJwt(s: string): boolean {
  // How many of the previous segments, chained by single dots, satisfy the pattern so far:
  // 0 = none, 1 = a segment with a qualifying `eyJ`, 2 = that plus one ≥ 8 segment.
  let chain = 0;
  let i = 0;
  const n = s.length;
  while (i < n) {
    if (!isJwtChar(s.charCodeAt(i))) {
      const dotJoin =
        s.charCodeAt(i) === 0x2e &&
        i + 1 < n &&
        isJwtChar(s.charCodeAt(i + 1)) &&
        i > 0 &&
        isJwtChar(s.charCodeAt(i - 1));
      if (!dotJoin) chain = 0;
      i++;
      continue;
    }
    const start = i;
    let earliestEyJ = -1;
    while (i < n && isJwtChar(s.charCodeAt(i))) {
      const boundary = i === start || !isWordChar(s.charCodeAt(i - 1));
      if (earliestEyJ < 0 && boundary && s.startsWith("eyJ", i)) earliestEyJ = i;
      i++;
    }
    const long = i - start >= 8;
    const next = chain === 2 && long ? 3 : chain === 1 && long ? 2 : 0;
    if (next === 3) return true;
    // A segment can also begin a new token itself.
    chain = next === 2 ? 2 : earliestEyJ >= 0 && i - (earliestEyJ + 3) >= 8 ? 1 : 0;
  }
  return false;
}
