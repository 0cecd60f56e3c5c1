import { generalFields } from '../groups/general.group';
import { orderFields } from '../groups/order.group';
import { card, sourceOfFunds } from '../groups/source-of-funds.group';
import { group, pick } from '../model/compose';
import type { ApiOperation, GroupField, OperationContract } from '../model/field';
import { MAX_VERSION, resolveContract } from '../operations/registry';
import { validateRequest, type ValidationResult } from '../validate';

/**
 * Payment Options Inquiry (`POST …/merchant/{m}/paymentOptionsInquiry`, behaviour notes): not a
 * transaction, so it records nothing and needs no field (an empty body is the empty object).
 * With a card (sent, or from a payment session) and an amount in a currency, the answer adds a
 * currency-conversion offer when the card's currency differs. `apiOperation` is accepted for the
 * clients that send it, with its one value. The card may be a card token's.
 */
export const PAYMENT_OPTIONS_INQUIRY = 'PAYMENT_OPTIONS_INQUIRY' as ApiOperation;

export const paymentOptionsInquiryContract: OperationContract = {
  apiOperation: PAYMENT_OPTIONS_INQUIRY,
  description: 'Ask which payment options the merchant has, and for a currency-conversion offer',
  body: group('Ask which payment options the merchant has', {
    apiOperation: {
      kind: 'enum',
      values: [PAYMENT_OPTIONS_INQUIRY],
      description: 'Optional: always PAYMENT_OPTIONS_INQUIRY for this request',
    },
    correlationId: generalFields.correlationId,
    order: group(
      'The order the payer is about to pay: with a card, amount and currency ask for a currency-conversion offer',
      pick(orderFields, 'amount', 'currency'),
    ),
    session: group('Payment session holding the card, amount or currency', {
      id: generalFields.session.fields.id,
    }),
    sourceOfFunds: group("The payer's card, to ask for a currency-conversion offer", {
      provided: group('Payment details supplied in the request', {
        card: group('Card details', pick(card.fields, 'number', 'expiry')),
      }),
      token: sourceOfFunds.fields.token,
      type: {
        kind: 'enum',
        values: ['CARD'],
        description: 'Only a card can be asked about',
      },
    }),
  }),
};

export function validatePaymentOptionsInquiry(body: unknown): ValidationResult {
  return validateRequest(paymentOptionsInquiryContract, body);
}

/** The browser payment providers the answer lists: those INITIATE_BROWSER_PAYMENT takes. */
export function browserPaymentProviders(): readonly string[] {
  const body = resolveContract('INITIATE_BROWSER_PAYMENT', MAX_VERSION)!.body;
  const type = (body.fields.sourceOfFunds as GroupField).fields.type;
  return type.kind === 'enum' ? type.values : [];
}
