import type { PayerChoice } from '@gateway/acquirer';
import { findTransaction, type CompleteChallenge } from '@gateway/domain';
import { encryptedForSession } from '../../transaction/encrypted-data';
import type { Parsed, PayerStepSlice } from '../slice';

interface ChallengeParsed extends Parsed<CompleteChallenge> {
  readonly choice: PayerChoice;
}

/** The payer answered the ACS challenge page; the 3-D Secure server gives the result. */
export const payerChallengeResult: PayerStepSlice<
  { readonly kind: 'challenge'; readonly choice: PayerChoice },
  ChallengeParsed
> = {
  apiOperation: 'PAYER_CHALLENGE_RESULT',
  parse: (step, ids) => ({
    request: { ...ids, type: 'PAYER_CHALLENGE_RESULT' },
    choice: step.choice,
  }),
  async ask({ request, choice }, { state, ports }) {
    const { type: _type, ...ids } = request;
    // The check stage has made sure the AUTHENTICATION transaction awaits this challenge.
    const record = findTransaction(state, request.transactionId)!.authentication!;
    const result = ports.authentication.completeChallenge({
      ...ids,
      acsReference: record.acsReference ?? '',
      choice,
    });
    return {
      ...request,
      outcome: {
        result,
        ...(await encryptedForSession(ports.sessions, ids, record.sessionId, result)),
      },
    };
  },
};
