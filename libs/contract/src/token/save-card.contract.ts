import { generalFields } from '../groups/general.group';
import { card } from '../groups/source-of-funds.group';
import { group, pick } from '../model/compose';
import type { ApiOperation, OperationContract } from '../model/field';
import { validateRequest, type ValidationResult } from '../validate';

/** How a card is checked before it is saved (behaviour notes, Stored cards). */
export const VERIFICATION_STRATEGIES = ['NONE', 'BASIC', 'ACQUIRER'] as const;
export type VerificationStrategy = (typeof VERIFICATION_STRATEGIES)[number];

/** Not a transaction: the name the contract is known by in the OpenAPI document. */
export const SAVE_CARD = 'SAVE_CARD' as ApiOperation;

/**
 * Save Card (`POST …/token`, `PUT …/token/{tokenid}`): the card from the request or from a
 * payment session. No security code: it may never be stored, so the field is not taken (an
 * unknown field is refused like any other).
 */
export const saveCardContract: OperationContract = {
  apiOperation: SAVE_CARD,
  description: 'Save a card as a token',
  body: group('The card to save', {
    correlationId: generalFields.correlationId,
    session: group('Payment session holding the card details', {
      id: generalFields.session.fields.id,
    }),
    sourceOfFunds: group('The card to save', {
      provided: group('Payment details supplied in the request', {
        card: group('Card details', pick(card.fields, 'expiry', 'holder', 'number')),
      }),
      type: { kind: 'enum', values: ['CARD'], description: 'Only a card can be saved' },
    }),
    verificationStrategy: {
      kind: 'enum',
      values: [...VERIFICATION_STRATEGIES],
      description:
        'NONE (the default): no check; BASIC: the card number passes the Luhn check and the expiry has not passed; ACQUIRER: a zero-amount verification with the acquirer, a decline refuses the token',
    },
  }),
};

export function validateSaveCard(body: unknown): ValidationResult {
  return validateRequest(saveCardContract, body);
}
