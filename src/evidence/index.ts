/**
 * Deterministic evidence ("yaoc/evidence", seed 002): receipts of check results with their
 * ReproHash, the JSON canonical form (RFC 8785) and the field classification behind it.
 */
export {
  toReceipt,
  renderEvidenceJson,
  seal,
  EVIDENCE_CLASSES,
  type EvidenceClass,
  type Provenance,
  type Receipt,
  type ReceiptOptions,
  type RunContext,
} from "./receipt.js";
export { canonicalize, reproHashOf, type Canonicalized } from "./canonicalize.js";
export { canonicalJson, CanonicalizationError, type JsonValue } from "../json/jcs.js";
export {
  RECEIPT_TABLE,
  ATTESTATION_TABLE,
  type ClassificationTable,
  type FieldClass,
  type FieldRule,
} from "./classification.js";
export { actionForSeverity, type Action, type ReasonCode } from "../codes/reasons.js";
export { EVIDENCE_CODES } from "../codes/evidence.js";
