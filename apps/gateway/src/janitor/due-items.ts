import type { AcquirerLater, ToldFact } from '@gateway/acquirer';
import {
  isApproved,
  parseOrderStreamId,
  type OrderEvent,
  type Thousandths,
  type TransactionRecord,
} from '@gateway/domain';
import type { EventData } from '@gateway/event-store';

interface OrderOf {
  readonly merchantId: string;
  readonly orderId: string;
}

/** Something the janitor must do at its time: ask about a transaction, or tell what the acquirer said. */
export type DueItem =
  | (OrderOf & {
      readonly kind: 'inquiry';
      readonly transactionId: string;
      /** 1-based: the schedule's attempt-th delay after the request. */
      readonly attempt: number;
      readonly amount: Thousandths;
      readonly currency: string;
      readonly requestedAt: string;
    })
  /** Something the acquirer tells on its own (a dispute, a chargeback). */
  | (OrderOf & { readonly kind: 'told'; readonly told: ToldFact });

export interface DueRow {
  /** Unique per thing to do, so that deriving it again changes nothing. */
  readonly key: string;
  /** The transaction the row is about: one UNKNOWN's inquiries are removed together. */
  readonly subject: string;
  /** Epoch milliseconds on the gateway's clock. */
  readonly dueAt: number;
  readonly item: DueItem;
}

export type ScheduleChange =
  | { readonly op: 'put'; readonly row: DueRow }
  | { readonly op: 'remove'; readonly key: string }
  /** Every inquiry still due about the subject: its outcome is known (or given up on). */
  | { readonly op: 'remove-inquiries'; readonly subject: string };

export const subjectOf = (streamId: string, transactionId: string) =>
  `${streamId}\u0000${transactionId}`;
export const inquiryKey = (subject: string, attempt: number) =>
  `${subject}\u0000inquiry:${attempt}`;
export const disputeKey = (streamId: string, disputeId: string) =>
  `${streamId}\u0000dispute:${disputeId}`;
export const chargebackKey = (streamId: string, transactionId: string) =>
  `${streamId}\u0000chargeback:${transactionId}`;

/** The events that record a transaction the acquirer answered (TransactionProcessed). */
const PROCESSED: ReadonlySet<string> = new Set([
  'AuthorizationProcessed',
  'PaymentProcessed',
  'CaptureProcessed',
  'AuthorizationUpdateProcessed',
  'RefundProcessed',
  'VoidProcessed',
  'VerificationProcessed',
]);

export interface SchedulePlan {
  readonly inquiryScheduleMs: readonly number[];
  readonly later: Pick<AcquirerLater, 'noticesAbout'>;
}

/**
 * What one stored event changes in the schedule. Derived from the events alone, so a schedule
 * rebuilt from the first event (or from its checkpoint after a crash) is the same: an UNKNOWN
 * transaction puts its inquiries, an approved capture or payment the acquirer's notices; the
 * facts recorded about them take them off again.
 */
export function scheduleChangesOf(event: EventData, plan: SchedulePlan): ScheduleChange[] {
  const order = parseOrderStreamId(event.streamId);
  if (!order) return [];
  if (PROCESSED.has(event.type))
    return processedChanges(event.streamId, order, event.data as TransactionRecord, plan);
  const fact = { type: event.type, data: event.data } as OrderEvent;
  switch (fact.type) {
    case 'AcquirerInquired': {
      const subject = subjectOf(event.streamId, fact.data.transactionId);
      return fact.data.answer === 'UNKNOWN'
        ? [{ op: 'remove', key: inquiryKey(subject, fact.data.attempt) }]
        : [{ op: 'remove-inquiries', subject }];
    }
    case 'TransactionOutcomeLearned':
    case 'AuthorizationReversed':
      return [
        { op: 'remove-inquiries', subject: subjectOf(event.streamId, fact.data.transactionId) },
      ];
    case 'DisputeOpened':
      return [{ op: 'remove', key: disputeKey(event.streamId, fact.data.disputeId) }];
    case 'ChargebackProcessed':
      return [{ op: 'remove', key: chargebackKey(event.streamId, fact.data.id) }];
    default:
      return [];
  }
}

function processedChanges(
  streamId: string,
  order: OrderOf,
  transaction: TransactionRecord,
  plan: SchedulePlan,
): ScheduleChange[] {
  const { id: transactionId, amount, currency } = transaction;
  const time = Date.parse(transaction.timeOfRecord);
  if (transaction.gatewayCode === 'UNKNOWN') {
    const subject = subjectOf(streamId, transactionId);
    return plan.inquiryScheduleMs.map((delay, index) => ({
      op: 'put',
      row: {
        key: inquiryKey(subject, index + 1),
        subject,
        dueAt: time + delay,
        item: {
          kind: 'inquiry',
          ...order,
          transactionId,
          attempt: index + 1,
          amount,
          currency,
          requestedAt: transaction.timeOfRecord,
        },
      },
    }));
  }
  if (
    (transaction.type !== 'CAPTURE' && transaction.type !== 'PAYMENT') ||
    !isApproved(transaction.gatewayCode)
  )
    return [];
  const notices = plan.later.noticesAbout({
    ...order,
    transactionId,
    type: transaction.type,
    amount,
    currency,
    time: new Date(time),
  });
  return notices.map(({ dueAt, told }): ScheduleChange => {
    const key =
      told.kind === 'DISPUTE'
        ? disputeKey(streamId, told.disputeId)
        : chargebackKey(streamId, told.transactionId);
    const subject = subjectOf(streamId, told.targetTransactionId);
    return {
      op: 'put',
      row: { key, subject, dueAt: dueAt.getTime(), item: { kind: 'told', ...order, told } },
    };
  });
}
