import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const FIXTURES = join(REPO, "fixtures/harp");
export const GOLDEN = join(REPO, "golden/harp");
export const FIXTURE_APP = join(REPO, "conformance/harp/fixture-app");
