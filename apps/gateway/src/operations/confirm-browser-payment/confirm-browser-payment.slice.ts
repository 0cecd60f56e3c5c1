import { findTransaction, type ConfirmBrowserPayment } from '@gateway/domain';
import { providerAnswer } from '../../payer/provider-answer';
import { amount, get, optionalString } from '../../transaction/body-fields';
import { requestBase } from '../request-base';
import type { OperationSlice, Parsed } from '../slice';

/** CONFIRM_BROWSER_PAYMENT: the merchant confirms a CONFIRM_AT_MERCHANT payment; the provider settles it. */
export const confirmBrowserPayment: OperationSlice<Parsed<ConfirmBrowserPayment>> = {
  parse(body, ctx) {
    const currency = optionalString(body, 'order.currency');
    return {
      request: {
        ...requestBase(body, ctx),
        type: 'CONFIRM_BROWSER_PAYMENT',
        ...(get(body, 'order.amount') !== undefined
          ? { amount: amount(body, 'order.amount') }
          : {}),
        ...(currency !== undefined ? { currency } : {}),
      },
    };
  },
  // The check stage has made sure the browser payment exists and awaits confirmation.
  ask: ({ request }, { state, now }) => ({
    ...request,
    outcome: providerAnswer('APPROVED', findTransaction(state, request.transactionId)!, now),
  }),
};
