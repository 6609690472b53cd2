/**
 * Collects the diagnostics of one pack check, located by JSON node. Severity always comes from the
 * code table (DiagnosticCollector), so a code cannot be emitted without a row.
 */
import { DiagnosticCollector } from "../diagnostics/collector.js";
import type { Diagnostic, RelatedLocation, Span } from "../diagnostics/diagnostic.js";
import { HCP_CODES, type HcpCode } from "./codes.js";
import type { JsonMember, JsonNode, JsonObject } from "./json-reader.js";
import type { TextPositions } from "../diagnostics/text-positions.js";

/** A parsed JSON protocol file. */
export interface JsonDoc {
  /** The protocol file name, e.g. `surface.json`. */
  readonly name: string;
  /** The file as the user named it (pack path joined with the name). */
  readonly file: string;
  readonly root: JsonObject;
  readonly positions: TextPositions;
}

export interface Where {
  readonly file?: string;
  readonly span?: Span;
  readonly pointer?: string;
  readonly hint?: string;
  readonly related?: readonly RelatedLocation[];
}

export class PackReporter extends DiagnosticCollector<typeof HCP_CODES> {
  constructor() {
    super(HCP_CODES);
  }

  /** The diagnostics, closed by `hcp.diagnostic_limit` when some past the cap were only counted. */
  closed(file: string): Diagnostic[] {
    return this.closedWith("hcp.diagnostic_limit", file);
  }

  /** Report at a JSON value (its whole span) with its pointer. */
  atValue(code: HcpCode, doc: JsonDoc, node: JsonNode, pointer: string, message: string, hint?: string): void {
    this.emit(code, message, () => ({ file: doc.file, span: doc.positions.span(node.start, node.end), pointer, hint }));
  }

  /** Report at a member name (used when the name itself is the problem, e.g. a bad verb_key). */
  atKey(code: HcpCode, doc: JsonDoc, member: JsonMember, pointer: string, message: string, hint?: string): void {
    this.emit(code, message, () => ({
      file: doc.file,
      span: doc.positions.span(member.keyStart, member.keyEnd),
      pointer,
      hint,
    }));
  }

  /** Report a missing member at the `{` of the object that should hold it. */
  atObject(code: HcpCode, doc: JsonDoc, obj: JsonObject, pointer: string, message: string, hint?: string): void {
    this.emit(code, message, () => ({
      file: doc.file,
      span: doc.positions.span(obj.start, obj.start + 1),
      pointer,
      hint,
    }));
  }
}
