/**
 * Kept so that tests written against the old module keep compiling: it now only re-exports the
 * repository root. The reference material beside the repository is reached only through
 * test/reference/reference.ts (see test/repo/no-reference-reads.test.ts).
 */
export { REPO_ROOT } from "./repo.js";
