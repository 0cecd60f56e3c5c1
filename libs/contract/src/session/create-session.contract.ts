import type { FieldError } from '../api-error';
import { invalidValue } from '../engine/explain';
import { generalFields } from '../groups/general.group';
import { group } from '../model/compose';
import type { ApiOperation, OperationContract } from '../model/field';
import { isJsonObject, validateRequest, type BodyError, type ValidationResult } from '../validate';
import { checkoutContractAt, checkoutOperationAt } from './checkout-session.contract';

/**
 * Create Session (`POST …/session`) makes an empty payment session: it needs no field and takes
 * none but the transient correlationId. It has no apiOperation member; the name labels
 * explanations only ("not part of the CREATE_SESSION request"). With the version's checkout
 * apiOperation it makes a checkout session instead (checkout-session.contract.ts); any other
 * apiOperation is refused, naming the field (behaviour notes, "Nothing silently ignored").
 */
export const createSessionContract: OperationContract = {
  apiOperation: 'CREATE_SESSION' as ApiOperation,
  description: 'Create an empty payment session',
  body: group('Create an empty payment session', {
    correlationId: generalFields.correlationId,
  }),
};

/**
 * The Create Session body at an API version: a JSON object (an empty body is the empty object,
 * decided before this), then the checkout contract when apiOperation names the version's
 * checkout, the empty session's when there is none. The value's apiOperation tells which.
 */
export function validateSessionCreate(
  version: number,
  body: unknown,
): ValidationResult<FieldError | BodyError> {
  if (!isJsonObject(body))
    return { ok: false, error: { explanation: 'The request body must be a JSON object' } };
  if (body.apiOperation === checkoutOperationAt(version))
    return validateRequest(checkoutContractAt(version), body);
  if (body.apiOperation !== undefined)
    return { ok: false, error: refusedOperation(version, body.apiOperation) };
  return validateRequest(createSessionContract, body);
}

function refusedOperation(version: number, value: unknown): FieldError {
  const reason = `Create Session takes no apiOperation but ${checkoutOperationAt(version)}, a hosted checkout at version ${version}`;
  return {
    field: 'apiOperation',
    validationType: 'INVALID',
    explanation: invalidValue(value, false, reason),
  };
}
