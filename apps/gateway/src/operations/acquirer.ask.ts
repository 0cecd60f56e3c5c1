import type { AcquirerRequest } from '@gateway/acquirer';
import type { DeciderCommand, OrderCommand, RecordedSourceOfFunds } from '@gateway/domain';
import { toProcessorOutcome, withCardFacts } from '../transaction/processor-outcome';
import type { AskContext } from './slice';

/** What a slice asks the acquirer; the pipeline's ids and time complete it. */
export type AcquirerAsk = AcquirerRequest extends infer R
  ? R extends AcquirerRequest
    ? Omit<R, 'merchantId' | 'orderId' | 'transactionId' | 'now'>
    : never
  : never;

type AcquirerAnswered = Omit<OrderCommand, 'outcome'> & {
  readonly sourceOfFunds?: RecordedSourceOfFunds;
};

/**
 * Asks the acquirer and returns the request with its answer: the decider's input. What the
 * acquirer learned from the BIN joins the recorded card.
 */
export async function askAcquirer(
  request: AcquirerAnswered,
  asked: AcquirerAsk,
  ctx: AskContext,
): Promise<DeciderCommand> {
  const answer = await ctx.ports.acquirer.process({
    merchantId: request.merchantId,
    orderId: request.orderId,
    transactionId: request.transactionId,
    now: ctx.now,
    ...asked,
  } as AcquirerRequest);
  return {
    ...request,
    ...(request.sourceOfFunds
      ? { sourceOfFunds: withCardFacts(request.sourceOfFunds, answer) }
      : {}),
    outcome: toProcessorOutcome(answer),
  } as DeciderCommand;
}
