import { billing } from '../groups/billing.group';
import { currencyConversion } from '../groups/currency-conversion.group';
import { customer } from '../groups/customer.group';
import { device } from '../groups/device.group';
import { generalFields, generalFieldsWithoutLineOfBusiness } from '../groups/general.group';
import { orderFields } from '../groups/order.group';
import { shipping } from '../groups/shipping.group';
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

const orderInBoth = pick(
  orderFields,
  'custom',
  'customerNote',
  'customerOrderDate',
  'customerReference',
  'notificationUrl',
  'reference',
  'requestorName',
  'walletIndicator',
  'walletProvider',
);

export const refundV26 = contract('REFUND', 26, 'Refund captured funds', {
  billing,
  customer,
  device,
  order: group('The order', {
    ...orderInBoth,
    ...pick(orderFields, 'productSKU', 'taxRegistrationId'),
  }),
  shipping,
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
    billing,
    currencyConversion,
    customer,
    device,
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
    shipping,
    sourceOfFunds,
    transaction,
    ...generalFields,
  },
  [{ check: 'differs', field: 'currencyConversion.payerCurrency', from: 'transaction.currency' }],
);
