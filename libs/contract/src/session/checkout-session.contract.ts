import { generalFields } from '../groups/general.group';
import { orderFields } from '../groups/order.group';
import { apiOperationField, group, required } from '../model/compose';
import type { ApiOperation, Fields, OperationContract } from '../model/field';

/** What the payment page does with the card (behaviour notes, "Hosted Checkout"). */
export const CHECKOUT_OPERATIONS = ['PURCHASE', 'AUTHORIZE', 'VERIFY', 'NONE'] as const;
export type CheckoutOperation = (typeof CHECKOUT_OPERATIONS)[number];

/** Hosted checkout's apiOperation at an API version: renamed at version 63. */
export function checkoutOperationAt(version: number): string {
  return version >= 63 ? 'INITIATE_CHECKOUT' : 'CREATE_CHECKOUT_SESSION';
}

const fields: Fields = {
  correlationId: generalFields.correlationId,
  interaction: required(
    group('The payment page the payer is sent to', {
      cancelUrl: {
        kind: 'httpsUrl',
        description: "Where the page's Cancel sends the payer's browser",
      },
      merchant: required(
        group('The merchant as the payment page shows it', {
          name: required({
            kind: 'string',
            min: 1,
            max: 40,
            description: 'The name shown to the payer',
          }),
        }),
      ),
      operation: required({
        kind: 'enum',
        values: CHECKOUT_OPERATIONS,
        description:
          'PURCHASE pays (PAY), AUTHORIZE authorizes, VERIFY verifies the card, NONE only keeps the card in the session',
      }),
      saveCard: {
        kind: 'enum',
        values: ['OFFER', 'NONE'],
        description:
          'OFFER: the page offers to save the card; the token is then in the session (sourceOfFunds.token). NONE by default',
      },
      returnUrl: required({
        kind: 'httpsUrl',
        description:
          "Where the payer's browser goes after the payment, with resultIndicator and sessionVersion",
      }),
    }),
  ),
  order: required(
    group('The order the page pays', {
      amount: required(orderFields.amount),
      currency: required(orderFields.currency),
      description: orderFields.description,
      id: required({
        kind: 'string',
        min: 1,
        max: 40,
        description: 'The order id the payment is made on',
      }),
      notificationUrl: orderFields.notificationUrl,
    }),
  ),
};

const checkoutContract = (apiOperation: string, version: number): OperationContract => ({
  apiOperation: apiOperation as ApiOperation,
  version,
  description: 'Create a checkout session for the payment page',
  body: group('Create a checkout session for the payment page', {
    apiOperation: apiOperationField(apiOperation as ApiOperation),
    ...fields,
  }),
});

/** A checkout session request from version 63 on. */
export const initiateCheckoutContract = checkoutContract('INITIATE_CHECKOUT', 63);
/** The same below version 63, by its older name. */
export const createCheckoutSessionContract = checkoutContract('CREATE_CHECKOUT_SESSION', 62);

/** The checkout contract of an API version. */
export const checkoutContractAt = (version: number): OperationContract =>
  version >= 63 ? initiateCheckoutContract : createCheckoutSessionContract;
