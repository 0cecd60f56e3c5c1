import type { AcquirerAnswer } from '@gateway/acquirer';
import type { ProcessorOutcome, RecordedSourceOfFunds } from '@gateway/domain';

/**
 * Records the acquirer's answer in the shape the response shows it: response.*, transaction.*,
 * risk.*. Groups appear only when they have content (spec: conditional groups).
 */
export function toProcessorOutcome(answer: AcquirerAnswer): ProcessorOutcome {
  const response = {
    ...(answer.acquirerCode !== undefined ? { acquirerCode: answer.acquirerCode } : {}),
    ...(answer.acquirerMessage !== undefined ? { acquirerMessage: answer.acquirerMessage } : {}),
    ...(answer.cardSecurityCode ? { cardSecurityCode: answer.cardSecurityCode } : {}),
    ...(answer.avs ? { cardholderVerification: { avs: answer.avs } } : {}),
  };
  const transaction = {
    ...(answer.acquirer ? { acquirer: answer.acquirer } : {}),
    ...(answer.authorizationCode !== undefined
      ? { authorizationCode: answer.authorizationCode }
      : {}),
    ...(answer.receipt !== undefined ? { receipt: answer.receipt } : {}),
  };
  return {
    gatewayCode: answer.gatewayCode,
    approvedAmount: answer.approvedAmount,
    ...(answer.reversed ? { reversed: true } : {}),
    details: {
      response,
      transaction,
      ...(answer.risk ? { risk: { response: answer.risk } } : {}),
      ...(answer.giftCard ? { giftCard: answer.giftCard } : {}),
      ...(answer.authorizationResponse
        ? { authorizationResponse: answer.authorizationResponse }
        : {}),
    },
  };
}

/** Adds what the acquirer learned from the BIN (brand, scheme, funding method) to the recorded card. */
export function withCardFacts(
  source: RecordedSourceOfFunds,
  answer: AcquirerAnswer,
): RecordedSourceOfFunds {
  const card = source.provided?.card;
  if (!card || !answer.card) return source;
  return { ...source, provided: { ...source.provided, card: { ...answer.card, ...card } } };
}
