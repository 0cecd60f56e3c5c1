import type { InitiateAuthentication } from '@gateway/domain';
import { get, requiredString, type Body } from '../../transaction/body-fields';
import { cardOf, type CardInput } from '../../transaction/source-of-funds.mapper';
import { requestBase, sessionOf } from '../request-base';
import type { OperationSlice, Parsed } from '../slice';

interface InitiateAuthenticationParsed extends Parsed<InitiateAuthentication> {
  readonly card: CardInput;
}

/** INITIATE_AUTHENTICATION: asks the 3-D Secure server whether the card can be authenticated. */
export const initiateAuthentication: OperationSlice<InitiateAuthenticationParsed> = {
  parse(body, ctx) {
    const { card, recorded } = cardOf(body, ctx.protect);
    return {
      request: {
        ...requestBase(body, ctx),
        ...sessionOf(body),
        type: 'INITIATE_AUTHENTICATION',
        currency: requiredString(body, 'order.currency'),
        sourceOfFunds: recorded,
        authentication: (get(body, 'authentication') ?? {}) as Body,
      },
      card,
    };
  },
  ask: ({ request, card }, { ports }) => ({
    ...request,
    outcome: ports.authentication.lookup({
      merchantId: request.merchantId,
      orderId: request.orderId,
      transactionId: request.transactionId,
      cardNumber: card.number,
    }),
  }),
};
