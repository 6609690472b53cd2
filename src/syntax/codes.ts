/** Reader diagnostics (yao-v0.1.md §1.4–1.5), shared by every Yao source yaoc reads. */
import { defineCodes, diagnosticsFor, type CodeOf } from "../diagnostics/codes.js";

export const YAO_READER_CODES = defineCodes([
  {
    code: "yao.source_limit",
    severity: "error",
    summary: "A source is larger than 262,144 UTF-8 bytes (checked before lexing).",
    clause: "HNS §15; Yao ref §1.1, §8",
    layer: "L2",
    reason: "size_source_over_256kib",
  },
  {
    code: "yao.invalid_utf8",
    severity: "error",
    summary: "A source is not valid UTF-8; the offset of the first bad byte is given.",
    clause: "HNS §5; loader ref H11",
    layer: "L1",
    reason: "struct_invalid_utf8",
  },
  {
    code: "yao.bom",
    severity: "error",
    summary: "A source starts with a UTF-8 byte order mark, which the reference would read as part of a symbol.",
    clause: "HNS §5; loader ref H11",
    layer: "L1",
    reason: "struct_byte_order_mark",
  },
  {
    code: "yao.invalid_character",
    severity: "error",
    summary: "A character the lexer cannot read (kept for parity with the reference; not produced by valid lexing).",
    clause: "Yao ref §1.2",
    layer: "L1",
    reason: "struct_invalid_character",
  },
  {
    code: "yao.nesting_limit",
    severity: "error",
    summary: "Lists nest deeper than 128; reported at the `(` opening level 129.",
    clause: "HNS §15; Yao ref §1.4, §8",
    layer: "L2",
    reason: "size_nesting_over_128",
  },
  {
    code: "yao.unexpected_close",
    severity: "error",
    summary: "A `)` with no open list.",
    clause: "HNS §5; Yao ref §1.4",
    layer: "L1",
    reason: "struct_unexpected_close",
  },
  {
    code: "yao.unterminated_string",
    severity: "error",
    summary: 'A string or `"""` block string is not closed, or a plain string contains a raw newline.',
    clause: "HNS §5; Yao ref §1.4",
    layer: "L1",
    reason: "struct_unterminated_string",
  },
  {
    code: "yao.invalid_escape",
    severity: "error",
    summary: 'A string escape other than \\\\ \\" \\n \\r \\t.',
    clause: "HNS §5; Yao ref §1.2",
    layer: "L1",
    reason: "struct_invalid_escape",
  },
  {
    code: "yao.unclosed_list",
    severity: "error",
    summary: "A list is still open at end of input; the span starts at the outermost open list.",
    clause: "HNS §5; Yao ref §1.4",
    layer: "L1",
    reason: "struct_unclosed_list",
  },
  {
    code: "yao.empty_input",
    severity: "error",
    summary: "A source that must hold one artifact holds none.",
    clause: "HNS §4.2; Yao ref §1.5",
    layer: "L1",
    reason: "struct_empty_input",
  },
  {
    code: "yao.multiple_top_level_forms",
    severity: "error",
    summary: "A source that must hold one artifact holds several.",
    clause: "HNS §4.2; Yao ref §1.5",
    layer: "L1",
    reason: "struct_multiple_top_level_forms",
  },
]);

/** Every YaoReader code; a code outside YAO_READER_CODES is a compile error. */
export type YaoReaderCode = CodeOf<typeof YAO_READER_CODES>;

/** Diagnostics of this table: the code must be one of its rows and the severity is the row's. */
export const diagnostic = diagnosticsFor(YAO_READER_CODES);
