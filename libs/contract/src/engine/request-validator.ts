import type { ValidationType } from '../api-error';
import type { OperationContract } from '../model/field';

/** One broken rule: `path` as the merchant sent it, indexes in brackets. */
export interface Violation {
  readonly path: string;
  readonly validationType: ValidationType;
  readonly explanation: string;
}

/** A body judged: its normalized value, or the first violation in document order (not yet redacted). */
export type Judgement =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly violation: Violation };

/**
 * The field rules of one contract (types, formats, lengths, required and unknown members), compiled
 * once. The engine behind it is replaceable: ordering, absence and cross-field rules live outside.
 */
export interface RequestValidator {
  /** Every violation in a normalized body, in any order; an empty array when it conforms. */
  violations(body: Readonly<Record<string, unknown>>): readonly Violation[];
  /**
   * Optionally, the whole judgement of a body as sent in one pass (absence, field rules, cross-field
   * rules, document order), which must equal what `validateRequest` derives from `violations`.
   * Undefined hands the body to that general pipeline.
   */
  judge?(sent: Readonly<Record<string, unknown>>): Judgement | undefined;
}

export interface ValidatorEngine {
  compile(contract: OperationContract): RequestValidator;
}
