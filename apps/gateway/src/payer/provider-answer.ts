import type { PayerDecision, ProcessorOutcome, TransactionState } from '@gateway/domain';
import { createHash } from 'node:crypto';

const ANSWERS: Readonly<
  Record<PayerDecision, { code: 'APPROVED' | 'DECLINED' | 'ABORTED'; message: string }>
> = {
  APPROVED: { code: 'APPROVED', message: 'Approved by the payer' },
  DECLINED: { code: 'DECLINED', message: 'Declined by the payer' },
  CANCELLED: { code: 'ABORTED', message: 'Cancelled by the payer' },
};

/**
 * The simulated provider's answer to what the payer did on its page: it settles an approval
 * (with its own reference), a decline, or a cancel (ABORTED, the spec's code for an abandoned
 * payment). The reference derives from the transaction, so it is the same on every replay.
 */
export function providerAnswer(
  decision: PayerDecision,
  tx: TransactionState,
  now: Date,
): ProcessorOutcome {
  const { code, message } = ANSWERS[decision];
  const provider = tx.browserPayment?.provider ?? 'PROVIDER';
  const reference = createHash('sha256')
    .update(`${provider}\0${tx.id}\0${tx.timeOfRecord}`)
    .digest('hex')
    .slice(0, 12)
    .toUpperCase();
  return {
    gatewayCode: code,
    approvedAmount: code === 'APPROVED' ? tx.amount : 0,
    details: {
      response: { acquirerCode: code === 'APPROVED' ? '00' : '05', acquirerMessage: message },
      transaction: {
        acquirer: {
          id: provider,
          transactionId: reference,
          date: now.toISOString().slice(0, 10),
          timeZone: '+0000',
        },
      },
    },
  };
}
