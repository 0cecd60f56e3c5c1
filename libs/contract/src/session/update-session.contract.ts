import { authenticationFields } from '../groups/authentication.group';
import { billing } from '../groups/billing.group';
import { customer } from '../groups/customer.group';
import { authenticationDevice } from '../groups/device.group';
import { generalFields } from '../groups/general.group';
import { orderFields } from '../groups/order.group';
import { shipping } from '../groups/shipping.group';
import { sourceOfFunds } from '../groups/source-of-funds.group';
import { group, pick } from '../model/compose';
import type { ApiOperation, OperationContract } from '../model/field';
import { validateRequest, type ValidationResult } from '../validate';

/**
 * Update Session (`PUT …/session/{id}`) is not a transaction operation and has no apiOperation
 * member; the spec does not list its fields, so it takes what the operations read from a session:
 * the card, the order's amount and description, the authentication choices and payer data.
 * The name labels explanations only ("not part of the UPDATE_SESSION request").
 */
export const updateSessionContract: OperationContract = {
  apiOperation: 'UPDATE_SESSION' as ApiOperation,
  description: 'Store card, order and payer fields in a payment session',
  body: group('Store card, order and payer fields in a payment session', {
    authentication: group(
      'Authentication choices',
      pick(
        authenticationFields,
        'acceptVersions',
        'challengePreference',
        'channel',
        'purpose',
        'redirectResponseUrl',
      ),
    ),
    billing,
    correlationId: generalFields.correlationId,
    customer,
    device: authenticationDevice,
    order: group(
      'The order',
      pick(orderFields, 'amount', 'currency', 'custom', 'description', 'reference'),
    ),
    session: group('Payment session', pick(generalFields.session.fields, 'version')),
    shipping,
    sourceOfFunds,
  }),
};

export function validateSessionUpdate(body: unknown): ValidationResult {
  return validateRequest(updateSessionContract, body);
}
