import { browserPayment } from '../groups/browser-payment.group';
import { customerEmailOnly } from '../groups/customer.group';
import { generalFields } from '../groups/general.group';
import { orderFields, orderTotalChecks } from '../groups/order.group';
import { shipping } from '../groups/shipping.group';
import { browserPaymentSourceOfFunds } from '../groups/source-of-funds.group';
import { contract, group, pick, required } from '../model/compose';

export const initiateBrowserPaymentV37 = contract(
  'INITIATE_BROWSER_PAYMENT',
  37,
  "Start a payment at a browser payment provider's website",
  {
    browserPayment,
    customer: customerEmailOnly,
    order: required(
      group(
        'The order',
        {
          amount: required(orderFields.amount),
          currency: required(orderFields.currency),
          ...pick(
            orderFields,
            'custom',
            'description',
            'discount',
            'item',
            'itemAmount',
            'notificationUrl',
            'shippingAndHandlingAmount',
            'taxAmount',
          ),
        },
        orderTotalChecks,
      ),
    ),
    shipping,
    sourceOfFunds: browserPaymentSourceOfFunds,
    transaction: group('The transaction', {
      providerD: group('Bank payment provider D details', {
        merchantPaymentReference: {
          kind: 'string',
          min: 1,
          max: 62,
          required: true,
          description: "The merchant's payment reference shown to the payer",
        },
        paymentDueDate: { kind: 'date', description: 'Date by which the payer must pay' },
        paymentReason: { kind: 'string', min: 1, max: 50, description: 'Reason for the payment' },
      }),
    }),
    ...generalFields,
  },
  [
    {
      check: 'requiredWhen',
      field: 'sourceOfFunds.provided.providerB.bankIdentifier',
      when: { field: 'sourceOfFunds.type', equals: 'PROVIDER_B' },
    },
    {
      check: 'requiredWhen',
      field: 'browserPayment.providerA.paymentConfirmation',
      when: { field: 'sourceOfFunds.type', equals: 'PROVIDER_A' },
    },
  ],
);

/** Confirms a CONFIRM_AT_MERCHANT browser payment; not specified, so the general fields and the order amount only. */
export const confirmBrowserPayment = contract(
  'CONFIRM_BROWSER_PAYMENT',
  undefined,
  'Confirm a browser payment that waits for the merchant',
  {
    order: group('The order', pick(orderFields, 'amount', 'currency')),
    ...generalFields,
  },
);
