import type { OpensTransaction } from './operation-decider';
import { processedRecord } from './processed';
import { openOrderRejection } from './rejections';

/** VERIFY: a VERIFICATION; its amount serves risk assessment only, no money is asked for. */
export const verifyDecider: OpensTransaction<'VERIFY'> = {
  opens: 'transaction',
  rejection: openOrderRejection,
  event: (command, _state, common) => ({
    type: 'VerificationProcessed',
    data: processedRecord(command, common, 'VERIFICATION', {
      sourceOfFunds: command.sourceOfFunds,
    }),
  }),
};
