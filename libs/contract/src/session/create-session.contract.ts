import type { FieldError } from '../api-error';
import { invalidValue } from '../engine/explain';
import { generalFields } from '../groups/general.group';
import { group } from '../model/compose';
import type { ApiOperation, OperationContract } from '../model/field';
import { isJsonObject, validateRequest, type BodyError, type ValidationResult } from '../validate';

/**
 * Create Session (`POST …/session`) makes an empty payment session: it needs no field and takes
 * none but the transient correlationId. It has no apiOperation member; the name labels
 * explanations only ("not part of the CREATE_SESSION request"). What the gateway family does with
 * an apiOperation here (a hosted checkout session) is not offered yet: it is refused, naming the
 * field, never answered with a plain session (behaviour notes, "Nothing silently ignored").
 */
export const createSessionContract: OperationContract = {
  apiOperation: 'CREATE_SESSION' as ApiOperation,
  description: 'Create an empty payment session',
  body: group('Create an empty payment session', {
    correlationId: generalFields.correlationId,
  }),
};

/** Hosted checkout's apiOperation at an API version (behaviour notes, "Hosted Checkout"). */
export function checkoutOperationAt(version: number): string {
  return version >= 63 ? 'INITIATE_CHECKOUT' : 'CREATE_CHECKOUT_SESSION';
}

/**
 * The Create Session body at an API version: a JSON object (an empty body is the empty object,
 * decided before this), no apiOperation, then the contract.
 */
export function validateSessionCreate(
  version: number,
  body: unknown,
): ValidationResult<FieldError | BodyError> {
  if (!isJsonObject(body))
    return { ok: false, error: { explanation: 'The request body must be a JSON object' } };
  if (body.apiOperation !== undefined)
    return { ok: false, error: refusedOperation(version, body.apiOperation) };
  return validateRequest(createSessionContract, body);
}

function refusedOperation(version: number, value: unknown): FieldError {
  const checkout = checkoutOperationAt(version);
  const reason =
    value === checkout
      ? 'Hosted checkout is not offered by this gateway: create a session without apiOperation and send the operations from your server'
      : `Create Session takes no apiOperation (hosted checkout, not offered by this gateway, would be ${checkout} at version ${version})`;
  return {
    field: 'apiOperation',
    validationType: 'INVALID',
    explanation: invalidValue(value, false, reason),
  };
}
