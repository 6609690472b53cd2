/**
 * Worked examples for `yaoc explain CODE`: a small package that gets the code and the same package
 * fixed. Each example is a single-file HNS package (so it can be pasted into a file or piped into
 * `yaoc check -`); test/cli/explain.test.ts checks every one of them: the wrong text reports the
 * code and the fixed text does not. Meaning and spec clause come from the code tables (codes.ts);
 * this table only adds the examples, for the codes package authors meet most.
 */
export interface CodeExample {
  /** The package's file name (it decides the package kind: `.hns`). */
  readonly path: string;
  /** The package text that gets the code. */
  readonly wrong: string;
  /** The same package with the fix applied. */
  readonly fix: string;
  /** What the fix changed, in one sentence. */
  readonly change: string;
}

const MANIFEST = '(manifest (id demo) (version "1") (title "Demo"))';
const CONTRACT = '(contract (purpose "Show one diagnostic"))';
const pkg = (...forms: string[]): string => `${forms.join("\n")}\n`;

export const CODE_EXAMPLES: Readonly<Record<string, CodeExample>> = {
  "yao.unclosed_list": {
    path: "demo.hns",
    wrong: pkg(MANIFEST, CONTRACT, "(eval (seq 1 2)"),
    fix: pkg(MANIFEST, CONTRACT, "(eval (seq 1 2))"),
    change: "close every `(` with a `)`; the frame points at the list that is never closed",
  },
  "yao.unexpected_close": {
    path: "demo.hns",
    wrong: pkg(MANIFEST, CONTRACT, "(eval 42))"),
    fix: pkg(MANIFEST, CONTRACT, "(eval 42)"),
    change: "remove the `)` that closes nothing",
  },
  "yao.unterminated_string": {
    path: "demo.hns",
    wrong: pkg('(manifest (id demo) (version "1") (title "Demo))', CONTRACT, "(eval 42)"),
    fix: pkg(MANIFEST, CONTRACT, "(eval 42)"),
    change: 'end the string with a `"` on the same form',
  },
  "hns.missing_field": {
    path: "demo.hns",
    wrong: pkg('(manifest (id demo) (version "1"))', CONTRACT, "(eval 42)"),
    fix: pkg(MANIFEST, CONTRACT, "(eval 42)"),
    change: "add the required manifest field (here `title`)",
  },
  "hns.duplicate_field": {
    path: "demo.hns",
    wrong: pkg('(manifest (id demo) (version "1") (title "Demo") (title "Again"))', CONTRACT, "(eval 42)"),
    fix: pkg(MANIFEST, CONTRACT, "(eval 42)"),
    change: "keep one of the two fields",
  },
  "hns.unknown_field": {
    path: "demo.hns",
    wrong: pkg('(manifest (id demo) (version "1") (title "Demo") (colour "red"))', CONTRACT, "(eval 42)"),
    fix: pkg(MANIFEST, CONTRACT, "(eval 42)"),
    change: "remove the field HNS v0.1 does not define (it would never enter the identity)",
  },
  "hns.missing_artifact": {
    path: "demo.hns",
    wrong: pkg(MANIFEST, "(eval 42)"),
    fix: pkg(MANIFEST, CONTRACT, "(eval 42)"),
    change: "add the missing artifact (here the `(contract …)`)",
  },
  "hns.bad_suffix": {
    path: "demo.txt",
    wrong: pkg(MANIFEST, CONTRACT, "(eval 42)"),
    fix: pkg(MANIFEST, CONTRACT, "(eval 42)"),
    change: "name the package NAME.hns (a file, or a directory for the directory form); the text stays the same",
  },
  "yao.unknown_operator": {
    path: "demo.hns",
    wrong: pkg(MANIFEST, CONTRACT, "(eval (+ 1 2))"),
    fix: pkg(MANIFEST, CONTRACT, "(eval (add 1 2))"),
    change: "use Yao's operator name (`add`, not `+`)",
  },
  "yao.unknown_name": {
    path: "demo.hns",
    wrong: pkg(MANIFEST, CONTRACT, "(eval total)"),
    fix: pkg(MANIFEST, CONTRACT, "(eval (seq (bind total 42) total))"),
    change: "bind the name before using it (or fix its spelling)",
  },
  "yao.type_mismatch": {
    path: "demo.hns",
    wrong: pkg(
      MANIFEST,
      CONTRACT,
      '(fn add-one (params (n Int)) (returns Int) (body "one"))',
      "(eval (requires (tools)) (add-one (n 1)))",
    ),
    fix: pkg(
      MANIFEST,
      CONTRACT,
      "(fn add-one (params (n Int)) (returns Int) (body (add n 1)))",
      "(eval (requires (tools)) (add-one (n 1)))",
    ),
    change: "make the body produce the declared `(returns Int)` type",
  },
};
