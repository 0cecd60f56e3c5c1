import {
  unknownOutcomesOf,
  type Order,
  type OrderEvent,
  type OrderState,
  type TransactionsSettled,
} from '@gateway/domain';
import { ACCOUNTS } from './accounts';
import { transfer, type Entry, type Line } from './entry';
import { factTimeOf } from './fact-time';

const {
  payerHolds,
  holdsPending,
  unknownHeld,
  unknownPending,
  acquirerReceivable,
  merchantPayable,
  chargebacks,
  settledCash,
  fees,
} = ACCOUNTS;

/** Where an event is in the log: what its entries' ids come from (their time is its own). */
export interface Positioned {
  readonly position: bigint | string;
}

/** What an event posts for one transaction (or for the order), before ids and times are added. */
interface Posting {
  readonly transactionId?: string;
  readonly lines: readonly Line[];
}

/**
 * The entries one event posts, from the order as it stood before and after it (docs/ledger.md,
 * "Posting rules": one rule per event type). Balanced by construction: every line comes from a
 * transfer, so each entry's debits equal its credits.
 */
export function postingsOf(
  event: OrderEvent & Positioned,
  before: OrderState,
  after: OrderState,
): Entry[] {
  if (after.kind !== 'Order') return [];
  return rule(event, before, after)
    .filter((posting) => posting.lines.length > 0)
    .map((posting, n) => ({
      entryId: `${event.position}/${n}`,
      time: factTimeOf(event),
      merchantId: after.merchantId,
      currency: after.currency,
      orderId: after.orderId,
      ...(posting.transactionId === undefined ? {} : { transactionId: posting.transactionId }),
      eventType: event.type,
      lines: posting.lines,
    }));
}

function rule(event: OrderEvent, before: OrderState, after: Order): Posting[] {
  switch (event.type) {
    // Facts that move no money: the order's header, checks, 3-D Secure, the audit trail.
    case 'OrderCreated':
    case 'VerificationProcessed':
    case 'AuthenticationInitiated':
    case 'PayerAuthenticationStarted':
    case 'PayerAuthenticated':
    case 'AcquirerInquired':
    case 'DisputeOpened':
    case 'AuthorizationReversed':
      return [];
    // Transactions, and later steps that may approve one: the money the order's totals moved.
    case 'AuthorizationProcessed':
    case 'PaymentProcessed':
    case 'CaptureProcessed':
    case 'AuthorizationUpdateProcessed':
    case 'RefundProcessed':
    case 'VoidProcessed':
    case 'ChargebackProcessed':
    case 'BrowserPaymentInitiated':
      return [{ transactionId: event.data.id, lines: moneyMoved(before, after) }];
    case 'BrowserPaymentRedirected':
    case 'BrowserPaymentReturned':
    case 'BrowserPaymentCompleted':
    case 'BrowserPaymentConfirmed':
    case 'TransactionOutcomeLearned':
      return [{ transactionId: event.data.transactionId, lines: moneyMoved(before, after) }];
    case 'TransactionsSettled':
      return settled(event.data, after);
    default: {
      const unexpected: never = event;
      return unexpected;
    }
  }
}

/** The amounts the accounts follow, as an order stands. */
interface Figures {
  readonly held: number;
  readonly unknown: number;
  readonly captured: number;
  readonly refunded: number;
  readonly chargedBack: number;
}

const NOTHING: Figures = { held: 0, unknown: 0, captured: 0, refunded: 0, chargedBack: 0 };

function figuresOf(state: OrderState | Order): Figures {
  if (!('totals' in state)) return NOTHING;
  const { authorized, captured, refunded, chargedBack = 0 } = state.totals;
  return {
    // What is authorised and not captured stays held on the payer's card; a void releases it.
    held: Math.max(0, authorized - captured),
    unknown: unknownOutcomesOf(state).amount,
    captured,
    refunded,
    chargedBack,
  };
}

/**
 * Each change of the order's figures, as transfers: a hold placed (or released), an UNKNOWN
 * amount held apart (or released once learnt), money captured (receivable from the acquirer,
 * payable to the merchant), refunded (the reverse), taken back by a chargeback.
 */
function moneyMoved(before: OrderState, after: Order): Line[] {
  const was = figuresOf(before);
  const now = figuresOf(after);
  return [
    ...transfer(payerHolds, holdsPending, now.held - was.held),
    ...transfer(unknownHeld, unknownPending, now.unknown - was.unknown),
    ...transfer(acquirerReceivable, merchantPayable, now.captured - was.captured),
    ...transfer(merchantPayable, acquirerReceivable, now.refunded - was.refunded),
    ...transfer(chargebacks, acquirerReceivable, now.chargedBack - was.chargedBack),
  ];
}

/**
 * One entry per settled transaction: the receivable settles (a refund's is negative, money back
 * to the payer), the cash is what the acquirer paid (gross less the fee), the fee is an expense.
 * What settled short stays in the receivable, for reconciliation to find.
 */
function settled(settlement: TransactionsSettled['data'], after: Order): Posting[] {
  return settlement.transactions.map(({ transactionId, settledAmount, fee }) => {
    const refund = after.transactions.find((t) => t.id === transactionId)?.type === 'REFUND';
    const gross = refund ? -settledAmount : settledAmount;
    return {
      transactionId,
      lines: [
        ...transfer(settledCash, acquirerReceivable, gross - fee),
        ...transfer(fees, acquirerReceivable, fee),
      ],
    };
  });
}
