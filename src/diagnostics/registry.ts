/**
 * Every diagnostic code yaoc can emit, gathered from each stage's own table. docs/diagnostics.md is
 * generated from this list; a test fails when a code is emitted without a row here.
 */
import type { CodeInfo } from "./codes.js";

// Frontend tables are appended here as frontends land.
export const ALL_CODES: readonly CodeInfo[] = [];
