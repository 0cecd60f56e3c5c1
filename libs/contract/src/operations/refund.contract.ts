import { currencyConversion } from '../groups/currency-conversion.group';
import { generalFields, generalFieldsWithoutLineOfBusiness } from '../groups/general.group';
import { clientGroups, clientOrderFields } from '../groups/merchant-client.group';
import { orderFields } from '../groups/order.group';
import { sourceOfFunds } from '../groups/source-of-funds.group';
import { transactionFields } from '../groups/transaction.group';
import { contract, group, pick, required } from '../model/compose';

/**
 * sourceOfFunds is accepted here, but only a standalone refund may carry it (and must): the
 * application knows which kind of refund it is, the contract does not.
 */
const transaction = required(
  group('The refund', {
    amount: required(transactionFields.amount),
    currency: required(transactionFields.currency),
    reference: transactionFields.reference,
    targetTransactionId: transactionFields.targetTransactionId,
    taxAmount: transactionFields.taxAmount,
  }),
);

const orderInBoth = {
  ...clientOrderFields,
  ...pick(
    orderFields,
    'customerNote',
    'customerOrderDate',
    'customerReference',
    'notificationUrl',
    'requestorName',
    'walletIndicator',
    'walletProvider',
  ),
};

export const refundV26 = contract('REFUND', 26, 'Refund captured funds', {
  ...clientGroups,
  order: group('The order', {
    ...orderInBoth,
    ...pick(orderFields, 'productSKU', 'taxRegistrationId'),
  }),
  sourceOfFunds,
  transaction,
  ...generalFieldsWithoutLineOfBusiness,
});

/** Version 41 drops productSKU and taxRegistrationId and adds sub-merchant, descriptor, DCC and line of business. */
export const refundV41 = contract(
  'REFUND',
  41,
  'Refund captured funds',
  {
    ...clientGroups,
    currencyConversion,
    order: group('The order', {
      ...orderInBoth,
      ...pick(
        orderFields,
        'acceptPartialAmount',
        'owningEntity',
        'statementDescriptor',
        'subMerchant',
      ),
    }),
    sourceOfFunds,
    transaction,
    ...generalFields,
  },
  [{ check: 'differs', field: 'currencyConversion.payerCurrency', from: 'transaction.currency' }],
);
