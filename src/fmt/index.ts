/** The Yao formatter (browser-safe). */
export { formatSource, formattedLimitError, FORMAT_WIDTH, type FormatResult } from "./format.js";
