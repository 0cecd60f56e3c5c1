import { generalFields } from '../groups/general.group';
import { clientGroups, clientOrderFields } from '../groups/merchant-client.group';
import { transactionFields } from '../groups/transaction.group';
import { contract, group, required } from '../model/compose';

/**
 * Capture is referenced but not specified: the amount to capture, the general fields and what
 * merchant clients send on every operation (behaviour notes).
 */
export const capture = contract('CAPTURE', undefined, 'Capture authorized funds', {
  ...clientGroups,
  order: group('The order', clientOrderFields),
  transaction: required(
    group('The capture', {
      amount: required(transactionFields.amount),
      currency: required(transactionFields.currency),
      reference: transactionFields.reference,
      taxAmount: transactionFields.taxAmount,
    }),
  ),
  ...generalFields,
});
