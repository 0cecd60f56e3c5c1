import { findTransaction, type PayerDecision, type ReturnFromProvider } from '@gateway/domain';
import { providerAnswer } from '../../payer/provider-answer';
import type { Parsed, PayerStepSlice } from '../slice';

/** The payer approved, declined or cancelled at the provider; the provider settles it. */
export const payerReturnedFromProvider: PayerStepSlice<
  { readonly kind: 'return'; readonly decision: PayerDecision },
  Parsed<ReturnFromProvider>
> = {
  apiOperation: 'PAYER_RETURNED_FROM_PROVIDER',
  parse: (step, ids) => ({
    request: { ...ids, type: 'PAYER_RETURNED_FROM_PROVIDER', decision: step.decision },
  }),
  // The check stage has made sure the browser payment exists and awaits the payer.
  ask: ({ request }, { state, now }) => ({
    ...request,
    outcome: providerAnswer(request.decision, findTransaction(state, request.transactionId)!, now),
  }),
};
