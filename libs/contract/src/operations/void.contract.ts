import { generalFields } from '../groups/general.group';
import { orderFields } from '../groups/order.group';
import { voidSourceOfFunds } from '../groups/source-of-funds.group';
import { transactionFields } from '../groups/transaction.group';
import { contract, group, pick, required } from '../model/compose';

export const voidV40 = contract('VOID', 40, 'Reverse a previous transaction', {
  order: group('The order', pick(orderFields, 'custom')),
  sourceOfFunds: voidSourceOfFunds,
  transaction: required(
    group('The void', {
      merchantNote: transactionFields.merchantNote,
      reference: transactionFields.reference,
      targetTransactionId: required(transactionFields.targetTransactionId),
    }),
  ),
  ...generalFields,
});
