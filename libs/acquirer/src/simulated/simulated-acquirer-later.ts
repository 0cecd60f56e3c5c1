import type {
  AcquirerLater,
  AcquirerNotice,
  ApprovedTransaction,
  InquiryAnswer,
  InquiryRequest,
} from '../acquirer-later.port';
import { hashedDigits } from './hashed-digits';

export interface SimulatedLaterDelays {
  /** From the request to when the simulator knows an UNKNOWN transaction's outcome. */
  readonly outcomeAfterMs: number;
  /** From a `.666` capture or payment to its dispute. */
  readonly disputeAfterMs: number;
  /** From the dispute to the chargeback. */
  readonly chargebackAfterMs: number;
}

/** Behaviour notes: a capture or payment whose thousandths part is 666 is disputed by the payer. */
const DISPUTE_TRIGGER = 666;

const STILL_UNKNOWN: InquiryAnswer = {
  answer: 'UNKNOWN',
  details: { acquirerCode: '91', acquirerMessage: 'Issuer unavailable' },
};

/**
 * The simulated acquirer's later side, from the request alone (no state): it learns an UNKNOWN's
 * outcome `outcomeAfterMs` after the request, APPROVED when the amount's thousandths part is
 * even and DECLINED when odd; it disputes a `.666` capture or payment and charges it back.
 */
export class SimulatedAcquirerLater implements AcquirerLater {
  constructor(private readonly delays: SimulatedLaterDelays) {}

  async inquire(request: InquiryRequest): Promise<InquiryAnswer> {
    const waited = request.now.getTime() - request.requestedAt.getTime();
    if (waited < this.delays.outcomeAfterMs) return STILL_UNKNOWN;
    if (request.amount % 2 === 0) {
      const code = digitsOf(request.merchantId, request.orderId, request.transactionId, 6);
      return {
        answer: 'APPROVED',
        details: { acquirerCode: '00', acquirerMessage: 'Approved', authorizationCode: code },
      };
    }
    return {
      answer: 'DECLINED',
      details: { acquirerCode: '05', acquirerMessage: 'Do not honour' },
    };
  }

  noticesAbout(transaction: ApprovedTransaction): readonly AcquirerNotice[] {
    if (transaction.amount % 1000 !== DISPUTE_TRIGGER) return [];
    const { merchantId, orderId, transactionId, amount, currency } = transaction;
    const disputeId = `DSP${digitsOf(merchantId, orderId, transactionId, 12)}`;
    const disputedAt = transaction.time.getTime() + this.delays.disputeAfterMs;
    const disputed = { disputeId, targetTransactionId: transactionId, amount, currency };
    const chargeback = { transactionId: `CHARGEBACK-${disputeId}`, ...disputed };
    return [
      { dueAt: new Date(disputedAt), told: { kind: 'DISPUTE', ...disputed } },
      {
        dueAt: new Date(disputedAt + this.delays.chargebackAfterMs),
        told: { kind: 'CHARGEBACK', ...chargeback },
      },
    ];
  }
}

/** Decimal digits derived from the transaction's ids, so that every run chooses the same. */
function digitsOf(merchantId: string, orderId: string, transactionId: string, length: number) {
  return hashedDigits(`${merchantId}\0${orderId}\0${transactionId}\0later`)(0, length);
}
