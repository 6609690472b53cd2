/**
 * What the one strict JSON parser may vary per caller. Everything else is RFC 8259 and fixed: no
 * comments, no trailing commas, only `"` strings, no leading zeros, no raw control characters in
 * strings, whitespace is space, tab, LF and CR. The per-frontend choices are in docs/architecture.md
 * ("JSON").
 */
export interface JsonParseOptions {
  /** How deep objects and arrays may nest; checked before descending, never by recursion. */
  readonly maxDepth: number;
  /**
   * `"containers"`: an object or array may be at most the `maxDepth`-th open container.
   * `"values"`: any value (a scalar too) may sit inside at most `maxDepth` containers.
   */
  readonly depthCounts: "containers" | "values";
  /**
   * `"keep"`: every member stays in the tree, silently. `"report"`: the tree keeps every member and
   * the result lists each repeat with both name spans (in the order the members end).
   * `"reject"`: the first repeat is an error at its name.
   */
  readonly duplicateKeys: "keep" | "report" | "reject";
  /**
   * `"allow"`: strings decode as `JSON.parse` decodes them, unpaired surrogates included.
   * `"reject-text"`: an unpaired surrogate unit in the text, or a `\uD800`-`\uDBFF` escape not
   * directly followed by a `\uDC00`-`\uDFFF` escape (or a lone low escape), is an error where it
   * stands. `"reject-value"`: the decoded string must be well-formed UTF-16 (an escaped high
   * surrogate may pair with a raw low one); checked when the string ends.
   */
  readonly loneSurrogates: "allow" | "reject-text" | "reject-value";
  /** `"float"`: numbers are `number`. `"integer"`: a fraction or exponent is an error; values are exact `bigint`. */
  readonly numbers: "float" | "integer";
  /** With `"float"`: a number that overflows to ±Infinity is an error. */
  readonly finiteNumbers: boolean;
  /** The number scanner reads at most this many characters of one number (what follows is then the next token). */
  readonly maxNumberLength: number;
  /** Characters that make a number malformed when they directly follow it (`01`, `1.`, `1e`). */
  readonly notAfterNumber: string;
  /** `"reject"`: a leading U+FEFF is its own error. `"unexpected"`: it is just a character where a value should be. */
  readonly byteOrderMark: "reject" | "unexpected";
  /** `"reject"`: `//` or `/*` where whitespace may stand is its own error. `"unexpected"`: `/` is just a character. */
  readonly comments: "reject" | "unexpected";
}
