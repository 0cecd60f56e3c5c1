import type { Capture } from '@gateway/domain';
import { amount, requiredString } from '../../transaction/body-fields';
import { askAcquirer } from '../acquirer.ask';
import { referenceOf, requestBase } from '../request-base';
import type { OperationSlice, Parsed } from '../slice';

/** CAPTURE: takes part or all of the authorized amount; the acquirer answers. */
export const capture: OperationSlice<Parsed<Capture>> = {
  parse: (body, ctx) => ({
    request: {
      ...requestBase(body, ctx),
      ...referenceOf(body),
      type: 'CAPTURE',
      amount: amount(body, 'transaction.amount'),
      currency: requiredString(body, 'transaction.currency'),
    },
  }),
  ask: ({ request }, ctx) =>
    askAcquirer(
      request,
      { operation: 'CAPTURE', amount: request.amount, currency: request.currency },
      ctx,
    ),
};
