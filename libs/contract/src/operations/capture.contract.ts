import { generalFields } from '../groups/general.group';
import { transactionFields } from '../groups/transaction.group';
import { contract, group, required } from '../model/compose';

/** Capture is referenced but not specified: the amount to capture plus the general fields (behaviour notes). */
export const capture = contract('CAPTURE', undefined, 'Capture authorized funds', {
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
