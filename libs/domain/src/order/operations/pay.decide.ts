import type { OpensTransaction } from './operation-decider';
import { paymentRecord, paymentRejection } from './payment';

/** PAY: a PAYMENT, authorized and captured at once. */
export const payDecider: OpensTransaction<'PAY'> = {
  opens: 'transaction',
  rejection: paymentRejection,
  event: (command, state, common) => ({
    type: 'PaymentProcessed',
    data: paymentRecord(command, state, common, 'PAYMENT'),
  }),
};
