import { generalFields } from '../groups/general.group';
import { clientGroups, clientOrderFields } from '../groups/merchant-client.group';
import { transactionFields } from '../groups/transaction.group';
import { contract, group, required } from '../model/compose';

/**
 * Update Authorization is referenced but not specified (behaviour notes, "Update Authorization"):
 * the order's new total authorized amount, the general fields and what merchant clients send on
 * every operation. No version is shown, so one shape serves every version.
 */
export const updateAuthorization = contract(
  'UPDATE_AUTHORIZATION',
  undefined,
  "Change the order's total authorized amount",
  {
    ...clientGroups,
    order: group('The order', clientOrderFields),
    transaction: required(
      group('The update', {
        amount: required({
          ...transactionFields.amount,
          description: "The order's new total authorized amount, higher or lower",
        }),
        currency: required(transactionFields.currency),
        reference: transactionFields.reference,
      }),
    ),
    ...generalFields,
  },
);
