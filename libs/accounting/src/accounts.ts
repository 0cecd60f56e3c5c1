/**
 * The chart of accounts (docs/ledger.md, "Chart of accounts"). Every account is kept per merchant
 * and currency; a debit adds to a debit-normal account's balance, a credit to a credit-normal one's.
 */
export const ACCOUNTS = {
  /** Debit-normal: money held on payers' cards for the merchant, authorised and not captured. */
  payerHolds: 'payer_holds',
  /** Credit-normal: the merchant's side of those holds (the pending half of the two-phase transfer). */
  holdsPending: 'holds_pending',
  /** Debit-normal: transactions whose outcome is UNKNOWN, held apart until it is learnt. */
  unknownHeld: 'unknown_held',
  /** Credit-normal: the other side of the UNKNOWN amounts. */
  unknownPending: 'unknown_pending',
  /** Debit-normal: what the acquirer owes for captures and payments it has not settled yet. */
  acquirerReceivable: 'acquirer_receivable',
  /** Credit-normal: what the gateway owes the merchant for captured money, less refunds. */
  merchantPayable: 'merchant_payable',
  /** Debit-normal: money the acquirer took back, to recover from the merchant. */
  chargebacks: 'chargebacks',
  /** Debit-normal: what the acquirer paid (or took, for refunds) in settlement. */
  settledCash: 'settled_cash',
  /** Debit-normal: the acquirer's fees withheld from settlement. */
  fees: 'fees',
} as const;

export type Account = (typeof ACCOUNTS)[keyof typeof ACCOUNTS];

/** Every account, in the order reports list them. */
export const ACCOUNT_NAMES: readonly Account[] = Object.values(ACCOUNTS);
