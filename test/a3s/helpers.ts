import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const SHARED_A3S = join(REPO, "..", "shared", "reference", "a3s");

export function loadReference<T>(name: string): T {
  return JSON.parse(readFileSync(join(SHARED_A3S, name), "utf8")) as T;
}
