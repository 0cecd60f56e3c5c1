import type { Refund } from '@gateway/domain';
import { amount, get, optionalString, requiredString } from '../../transaction/body-fields';
import { sourceOf } from '../../transaction/source-of-funds.mapper';
import { askAcquirer } from '../acquirer.ask';
import { referenceOf, requestBase } from '../request-base';
import type { OperationSlice, Parsed } from '../slice';

/** REFUND: returns captured money, or pays out to a card on a new order (a standalone refund). */
export const refund: OperationSlice<Parsed<Refund>> = {
  parse(body, ctx) {
    const target = optionalString(body, 'transaction.targetTransactionId');
    const standalone =
      get(body, 'sourceOfFunds') !== undefined ? sourceOf(body, ctx.protect) : undefined;
    return {
      request: {
        ...requestBase(body, ctx),
        ...referenceOf(body),
        type: 'REFUND',
        amount: amount(body, 'transaction.amount'),
        currency: requiredString(body, 'transaction.currency'),
        ...(target !== undefined ? { targetTransactionId: target } : {}),
        ...(standalone ? { sourceOfFunds: standalone.recorded } : {}),
      },
    };
  },
  ask: ({ request }, ctx) =>
    askAcquirer(
      request,
      { operation: 'REFUND', amount: request.amount, currency: request.currency },
      ctx,
    ),
};
