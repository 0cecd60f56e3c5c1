import { findTransaction, voidedAmount, type Order, type Void } from '@gateway/domain';
import { requiredString } from '../../transaction/body-fields';
import { askAcquirer } from '../acquirer.ask';
import { referenceOf, requestBase } from '../request-base';
import type { OperationSlice, Parsed } from '../slice';

/** VOID: cancels an approved transaction of the order; the acquirer answers. */
export const voidTransaction: OperationSlice<Parsed<Void>> = {
  parse: (body, ctx) => ({
    request: {
      ...requestBase(body, ctx),
      ...referenceOf(body),
      type: 'VOID',
      targetTransactionId: requiredString(body, 'transaction.targetTransactionId'),
    },
  }),
  ask({ request }, ctx) {
    // The check stage has made sure the order and the target exist.
    const target = findTransaction(ctx.state, request.targetTransactionId)!;
    const amount = voidedAmount(ctx.state as Order, target);
    return askAcquirer(request, { operation: 'VOID', amount, currency: target.currency }, ctx);
  },
};
