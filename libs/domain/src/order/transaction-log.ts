import type { AuthenticationRecord } from './authentication.types';
import type { TransactionRecord } from './order.events';
import type { TransactionState } from './order.state';
import { isApproved } from './order.types';

/** An open-list link of a slot that is not in the list. */
const UNLINKED = -2;

/**
 * The bookkeeping behind an order's transactions, so that `evolve` costs amortised O(1) per event
 * instead of copying the transaction list and rescanning it for every event.
 *
 * One log is shared by a line of successive states: an append-only list of entries (slot, record),
 * where a slot is a transaction's place in the order and a later entry for a slot replaces the
 * record before it. A state remembers how many entries it has seen, so the entries never change
 * under it: its transaction list is the entries up to that count. The indexes beside them (by id,
 * the sums the status needs, the captures with something left to refund) describe the newest
 * entry only, and only the state that holds that newest entry may extend the log. Evolving an
 * older state copies its entries into a log of its own first (O(n), once per fork).
 */
export class TransactionLog {
  private readonly slots: number[] = [];
  private readonly records: TransactionState[] = [];
  /** The newest record of each slot. */
  private readonly current: TransactionState[] = [];
  private readonly slotById = new Map<string, number>();
  /** Sums over the current records that the status rules ask about. */
  private readonly counts = {
    fundsVoided: 0,
    verified: 0,
    payments: 0,
    pendingBrowser: 0,
    disputed: 0,
    unknown: 0,
    unknownAmount: 0,
  };
  /** The latest slot whose record carries a 3-D Secure authentication, -1 for none. */
  private lastAuthenticated = -1;
  /**
   * Approved, unvoided captures and payments with something left to refund, as a doubly linked
   * list in slot order, so an unnamed refund walks only captures it can take from.
   */
  private readonly openPrevious: number[] = [];
  private readonly openNext: number[] = [];
  private openLast = -1;

  static of(transactions: readonly TransactionState[]): TransactionLog {
    const log = new TransactionLog();
    for (const record of transactions) log.append(record);
    return log;
  }

  /** Entries so far: a state holding this many may extend the log. */
  get size(): number {
    return this.records.length;
  }

  /** Number of transactions. */
  get count(): number {
    return this.current.length;
  }

  /** A copy holding the first `size` entries, with its indexes rebuilt. */
  fork(size: number): TransactionLog {
    return TransactionLog.of(this.transactionsAt(size));
  }

  /** The transaction list of the state that had seen `size` entries. */
  transactionsAt(size: number): TransactionState[] {
    if (size === this.records.length) return this.current.slice();
    const list: TransactionState[] = [];
    for (let i = 0; i < size; i++) list[this.slots[i]] = this.records[i];
    return list;
  }

  find(id: string | undefined): TransactionState | undefined {
    const slot = id === undefined ? undefined : this.slotById.get(id);
    return slot === undefined ? undefined : this.current[slot];
  }

  /** A new transaction, at the end. */
  append(record: TransactionState): void {
    const slot = this.current.length;
    if (!this.slotById.has(record.id)) this.slotById.set(record.id, slot);
    this.write(slot, record);
  }

  /** A new record for an existing transaction (none for an unknown id). */
  replace(id: string, record: TransactionState): void {
    const slot = this.slotById.get(id);
    if (slot !== undefined) this.write(slot, record);
  }

  /** Transactions whose outcome is UNKNOWN (not learnt yet), and their amount. */
  unknown(): UnknownOutcomes {
    return { count: this.counts.unknown, amount: this.counts.unknownAmount };
  }

  /** What the status rules read from the current records. */
  statusInputs(): StatusInputs {
    return {
      fundsVoided: this.counts.fundsVoided > 0,
      verified: this.counts.verified > 0,
      payments: this.counts.payments,
      pendingBrowser: this.counts.pendingBrowser > 0,
      disputed: this.counts.disputed > 0,
      authentication: this.current[this.lastAuthenticated]?.authentication,
    };
  }

  /**
   * Captures and payments an approved refund takes from: its target first, then the others,
   * latest first, each at most what it has left.
   */
  refundParts(tx: TransactionRecord): { transactionId: string; amount: number }[] {
    const parts: { transactionId: string; amount: number }[] = [];
    let rest = tx.amount;
    const take = (record: TransactionState) => {
      const amount = Math.min(rest, refundableLeft(record));
      if (amount > 0) parts.push({ transactionId: record.id, amount });
      rest -= amount;
    };
    const target = this.find(tx.targetTransactionId);
    if (target && isRefundable(target)) take(target);
    // Nothing is ever refunded beyond its amount, so once `rest` is spent nothing more is taken.
    for (let slot = this.openLast; slot >= 0 && rest > 0; slot = this.openPrevious[slot])
      if (this.current[slot] !== target) take(this.current[slot]);
    return parts;
  }

  private write(slot: number, record: TransactionState): void {
    const before = this.current[slot];
    if (before) this.tally(before, -1);
    this.tally(record, 1);
    this.slots.push(slot);
    this.records.push(record);
    this.current[slot] = record;
    if (record.authentication && slot >= this.lastAuthenticated) this.lastAuthenticated = slot;
    else if (!record.authentication && slot === this.lastAuthenticated)
      this.lastAuthenticated = this.slotOfAuthenticationBelow(slot);
    this.settleOpen(slot, record);
  }

  private tally(record: TransactionState, sign: 1 | -1): void {
    const flags = flagsOf(record);
    this.counts.fundsVoided += sign * flags.fundsVoided;
    this.counts.verified += sign * flags.verified;
    this.counts.payments += sign * flags.payments;
    this.counts.pendingBrowser += sign * flags.pendingBrowser;
    this.counts.disputed += sign * flags.disputed;
    if (record.gatewayCode === 'UNKNOWN') {
      this.counts.unknown += sign;
      this.counts.unknownAmount += sign * record.amount;
    }
  }

  /** A scan, but only when the latest authentication loses it (no decider does that). */
  private slotOfAuthenticationBelow(slot: number): number {
    for (let i = slot - 1; i >= 0; i--) if (this.current[i].authentication) return i;
    return -1;
  }

  private settleOpen(slot: number, record: TransactionState): void {
    const open = isRefundable(record) && refundableLeft(record) > 0;
    const linked = (this.openPrevious[slot] ?? UNLINKED) !== UNLINKED;
    if (open === linked) return;
    if (!open) {
      const [previous, next] = [this.openPrevious[slot], this.openNext[slot]];
      if (previous >= 0) this.openNext[previous] = next;
      if (next >= 0) this.openPrevious[next] = previous;
      else this.openLast = previous;
      this.openPrevious[slot] = this.openNext[slot] = UNLINKED;
      return;
    }
    // New captures link at the end; a capture re-opened by a voided refund scans for its place.
    let previous = this.openLast;
    while (previous > slot) previous = this.openPrevious[previous];
    const next = previous >= 0 ? this.openNext[previous] : this.openFirstAfter(slot);
    this.openPrevious[slot] = previous;
    this.openNext[slot] = next;
    if (previous >= 0) this.openNext[previous] = slot;
    if (next >= 0) this.openPrevious[next] = slot;
    else this.openLast = slot;
  }

  private openFirstAfter(slot: number): number {
    let first = -1;
    for (let s = this.openLast; s > slot; s = this.openPrevious[s]) first = s;
    return first;
  }
}

export interface UnknownOutcomes {
  readonly count: number;
  readonly amount: number;
}

/** What the status rules read from all of the order's transactions. */
export interface StatusInputs {
  /** An approved void of an authorization or payment. */
  readonly fundsVoided: boolean;
  /** An approved verification. */
  readonly verified: boolean;
  /** Transactions other than 3-D Secure authentications. */
  readonly payments: number;
  /** A browser payment (not an authentication) still PENDING. */
  readonly pendingBrowser: boolean;
  /** A capture or payment with a dispute the acquirer has not ended yet. */
  readonly disputed: boolean;
  /** The latest transaction's 3-D Secure authentication, in order of the transactions. */
  readonly authentication?: AuthenticationRecord;
}

type Flags = Record<'fundsVoided' | 'verified' | 'payments' | 'pendingBrowser' | 'disputed', 0 | 1>;

function flagsOf(t: TransactionState): Flags {
  const approved = isApproved(t.gatewayCode);
  const payment = t.type !== 'AUTHENTICATION';
  return {
    fundsVoided: approved && (t.type === 'VOID_AUTHORIZATION' || t.type === 'VOID_PAYMENT') ? 1 : 0,
    verified: approved && t.type === 'VERIFICATION' ? 1 : 0,
    payments: payment ? 1 : 0,
    pendingBrowser: payment && t.browserPayment && t.gatewayCode === 'PENDING' ? 1 : 0,
    disputed: openDisputeAmount(t) > 0 ? 1 : 0,
  };
}

/** What the acquirer's open disputes on a capture or payment hold of it. */
export function openDisputeAmount(t: TransactionState): number {
  if (t.disputes === undefined) return 0; // nearly always: no array to allocate on the fold's path
  let held = 0;
  for (const d of t.disputes) if (d.chargebackTransactionId === undefined) held += d.amount;
  return held;
}

/**
 * What a capture or payment has left for a refund: not refunded, not taken back by the acquirer,
 * not held by an open dispute (decided here: the disputed amount waits for the acquirer).
 */
export function refundableLeft(t: TransactionState): number {
  return t.amount - t.refundedAmount - (t.chargedBackAmount ?? 0) - openDisputeAmount(t);
}

/** An approved, unvoided capture or payment: captured money a refund, dispute or chargeback names. */
export function isRefundable(t: TransactionState): boolean {
  return (t.type === 'CAPTURE' || t.type === 'PAYMENT') && isApproved(t.gatewayCode) && !t.voided;
}
