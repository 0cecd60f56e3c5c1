import type { Thousandths } from '../../domain/src/money';

/**
 * The acquirer's later side (behaviour notes, "What the acquirer tells the gateway later"): the
 * gateway asks again about a transaction whose outcome was UNKNOWN, and learns of disputes and
 * chargebacks it did not ask about. A real acquirer link implements the same port: `inquire`
 * over its inquiry message, `noticesAbout` as the facts it will push (none, when they arrive on an
 * inbound channel of their own and are recorded from there).
 */
export interface AcquirerLater {
  inquire(request: InquiryRequest): Promise<InquiryAnswer>;
  /** What the acquirer will tell on its own about a transaction it approved, and when. */
  noticesAbout(transaction: ApprovedTransaction): readonly AcquirerNotice[];
}

export interface InquiryRequest {
  readonly merchantId: string;
  readonly orderId: string;
  readonly transactionId: string;
  readonly amount: Thousandths;
  readonly currency: string;
  /** When the transaction was requested (its time of record). */
  readonly requestedAt: Date;
  /** The gateway's clock, passed in so that answers are reproducible. */
  readonly now: Date;
}

export interface InquiryAnswer {
  /** The outcome, once the acquirer learnt it; UNKNOWN until then. */
  readonly answer: 'APPROVED' | 'DECLINED' | 'UNKNOWN';
  /** The acquirer's own codes, recorded verbatim with the inquiry. */
  readonly details: Readonly<Record<string, string>>;
}

/** An approved transaction the acquirer may come back to (a capture or a payment). */
export interface ApprovedTransaction {
  readonly merchantId: string;
  readonly orderId: string;
  readonly transactionId: string;
  readonly type: 'CAPTURE' | 'PAYMENT';
  readonly amount: Thousandths;
  readonly currency: string;
  readonly time: Date;
}

/** A fact the acquirer will tell at `dueAt`. */
export interface AcquirerNotice {
  readonly dueAt: Date;
  readonly told: ToldFact;
}

/** What the acquirer tells, with the ids it chose (stable: derived, not drawn). */
export type ToldFact =
  | {
      readonly kind: 'DISPUTE';
      readonly disputeId: string;
      readonly targetTransactionId: string;
      readonly amount: Thousandths;
      readonly currency: string;
    }
  | {
      readonly kind: 'CHARGEBACK';
      /** The CHARGEBACK transaction's id. */
      readonly transactionId: string;
      readonly disputeId: string;
      readonly targetTransactionId: string;
      readonly amount: Thousandths;
      readonly currency: string;
    };
