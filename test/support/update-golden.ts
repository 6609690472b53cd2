/**
 * The one golden-update switch for every suite: `UPDATE_GOLDEN=1` makes the golden tests (and
 * vitest snapshots, see vitest.config.ts) rewrite their expected files instead of comparing. It is
 * refused when `CI` is set: golden values are written on a developer's machine, reviewed, and
 * committed with [golden] in the title; a CI run that rewrote them would compare the code with
 * itself and could never fail.
 */
export function updateGoldenRequested(env: Readonly<Record<string, string | undefined>>): boolean {
  if (env["UPDATE_GOLDEN"] !== "1") return false;
  if (env["CI"] !== undefined && env["CI"] !== "" && env["CI"] !== "0" && env["CI"] !== "false") {
    throw new Error(
      "UPDATE_GOLDEN=1 is refused when CI is set: rewrite golden files on a developer machine, review them and commit with [golden]",
    );
  }
  return true;
}

export const UPDATE_GOLDEN: boolean = updateGoldenRequested(process.env);
