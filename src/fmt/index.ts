/** The Yao formatter (browser-safe). */
export { formatSource, FORMAT_WIDTH, type FormatResult } from "./format.js";
