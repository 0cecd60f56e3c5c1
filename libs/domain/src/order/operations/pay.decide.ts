import type { OpensTransaction } from './operation-decider';
import { paymentRecord, paymentRejection, refusedByAuthentication } from './payment';

/** PAY: a PAYMENT, authorized and captured at once. */
export const payDecider: OpensTransaction<'PAY'> = {
  opens: 'transaction',
  rejection: paymentRejection,
  answeredWithoutAsking: refusedByAuthentication,
  event: (command, state, common) => ({
    type: 'PaymentProcessed',
    data: paymentRecord(command, state, common, 'PAYMENT'),
  }),
};
