/** The repository root, for tests that read committed files or spawn `bin/yaoc.js`. */
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
