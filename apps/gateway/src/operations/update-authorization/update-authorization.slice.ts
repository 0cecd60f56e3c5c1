import { authorizedCardOf, type Order, type UpdateAuthorization } from '@gateway/domain';
import { amount, optionalString, requiredString } from '../../transaction/body-fields';
import { askAcquirer } from '../acquirer.ask';
import { referenceOf, requestBase } from '../request-base';
import type { OperationSlice, Parsed } from '../slice';

interface UpdateParsed extends Parsed<UpdateAuthorization> {
  /** customer.email: the acquirer's risk screening reads it, as for AUTHORIZE. */
  readonly customerEmail: string | undefined;
}

/**
 * UPDATE_AUTHORIZATION: the order's new total authorized amount. The acquirer answers it as
 * AUTHORIZE for the card the authorization recorded (behaviour notes, "Update Authorization").
 */
export const updateAuthorization: OperationSlice<UpdateParsed> = {
  parse: (body, ctx) => ({
    request: {
      ...requestBase(body, ctx),
      ...referenceOf(body),
      type: 'UPDATE_AUTHORIZATION',
      amount: amount(body, 'transaction.amount'),
      currency: requiredString(body, 'transaction.currency'),
    },
    customerEmail: optionalString(body, 'customer.email'),
  }),
  ask({ request, customerEmail }, ctx) {
    // The check stage refused an order without an approved card authorization: the card is there.
    const { expiry } = authorizedCardOf(ctx.state as Order)!;
    return askAcquirer(
      request,
      {
        operation: 'UPDATE_AUTHORIZATION',
        amount: request.amount,
        currency: request.currency,
        cardExpiry: { expiryMonth: Number(expiry.month), expiryYear: Number(expiry.year) },
        customerEmail,
      },
      ctx,
    );
  },
};
