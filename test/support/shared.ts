/** Paths to the read-only reference material shared beside the repository (`<repo>/../shared`). */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const SHARED = fileURLToPath(new URL("../../../shared/", import.meta.url));
export const MORPHZ = `${SHARED}reference/morphz-fixtures/`;

export function sharedText(rel: string): string {
  return readFileSync(`${SHARED}${rel}`, "utf8");
}

export function morphzText(rel: string): string {
  return readFileSync(`${MORPHZ}${rel}`, "utf8");
}

export interface MorphzCase {
  readonly path: string;
  readonly outcome: string;
  readonly artifact_hash?: string;
  readonly content_hash?: string;
}

export function morphzIndex(): MorphzCase[] {
  return JSON.parse(morphzText("INDEX.json")) as MorphzCase[];
}
