import { findTransaction, orderStreamId, type Order } from '@gateway/domain';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { OperationPipeline } from '../operations/pipeline';
import { PAYER_STEPS } from '../operations/registry';
import type { PayerStepSlice } from '../operations/slice';
import { CLOCK, type Clock } from '../tokens';
import {
  RecordPayerStepCommand,
  type PayerStep,
  type PayerStepOutcome,
} from './record-payer-step.command';

/**
 * The payer's steps take the merchant's operations' pipeline: under the order's lock, checked by
 * the decider, appended with optimistic concurrency. A step the order's state does not allow (a
 * challenge answered twice, a provider page reused) is not recorded; the page says so.
 */
@CommandHandler(RecordPayerStepCommand)
export class RecordPayerStepHandler implements ICommandHandler<RecordPayerStepCommand> {
  constructor(
    private readonly pipeline: OperationPipeline,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  execute({ target, step }: RecordPayerStepCommand): Promise<PayerStepOutcome> {
    const slice = PAYER_STEPS[step.kind] as PayerStepSlice<PayerStep>;
    const now = this.clock();
    const ids = {
      merchantId: target.merchantId,
      orderId: target.orderId,
      transactionId: target.transactionId,
      now: now.toISOString(),
    };
    return this.pipeline.run<PayerStepOutcome>({
      streamId: orderStreamId(target.merchantId, target.orderId),
      now,
      metadata: {
        merchantId: target.merchantId,
        apiOperation: slice.apiOperation,
        causedBy: 'payer',
        time: ids.now,
      },
      // A payer's step is taken once; taking it again is refused by the order's state.
      replay: () => undefined,
      parse: () => slice.parse(step, ids),
      ask: (parsed, ctx) => slice.ask(parsed, ctx),
      refused: (rejection) => ({ recorded: false, reason: rejection.explanation }),
      lockLost: () => ({ recorded: false, reason: 'Another step is in progress; try again' }),
      render: (state) => ({
        recorded: true,
        order: state as Order,
        tx: findTransaction(state, target.transactionId)!,
      }),
    });
  }
}
