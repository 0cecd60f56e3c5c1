import type { ValidationType } from '../api-error';
import type { OperationContract } from '../model/field';

/** One broken rule: `path` as the merchant sent it, indexes in brackets. */
export interface Violation {
  readonly path: string;
  readonly validationType: ValidationType;
  readonly explanation: string;
}

/**
 * The field rules of one contract (types, formats, lengths, required and unknown members), compiled
 * once. The engine behind it is replaceable: ordering, absence and cross-field rules live outside.
 */
export interface RequestValidator {
  /** Every violation in a normalized body, in any order; an empty array when it conforms. */
  violations(body: Readonly<Record<string, unknown>>): readonly Violation[];
}

export interface ValidatorEngine {
  compile(contract: OperationContract): RequestValidator;
}
