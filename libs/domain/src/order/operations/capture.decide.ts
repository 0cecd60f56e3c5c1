import type { OpensTransaction } from './operation-decider';
import { processedRecord } from './processed';
import { exceeds, noSuchOrder } from './rejections';

/** CAPTURE: at most what is authorized and not yet captured. */
export const captureDecider: OpensTransaction<'CAPTURE'> = {
  opens: 'transaction',
  currencyField: 'transaction.currency',
  rejection: (request, state) =>
    state.kind === 'NoOrder'
      ? noSuchOrder(request)
      : exceeds(
          request.amount,
          state.totals.authorized - state.totals.captured,
          'authorized and not yet captured',
        ),
  event: (command, _state, common) => ({
    type: 'CaptureProcessed',
    data: processedRecord(command, common, 'CAPTURE', { amount: command.amount }),
  }),
};
