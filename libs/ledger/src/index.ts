/**
 * @gateway/ledger: what answers finance's questions from the event log, shared by the ledger CLI
 * (apps/ledger) and any page that shows the answers (docs/ledger.md). Each call takes what it
 * needs: the event log (an EventReader, read-only), the postings store (ledger.db, opened from a
 * data directory), and a merchant scope where one merchant's answer makes sense. Amounts are
 * integer thousandths (formatAmount, @gateway/domain, writes them at the edge). Memory stays flat
 * however long the log: each call reads it a page at a time and keeps only its answer.
 *
 * The calls a page needs:
 * - `openPostings(log, ledgerDbOf(dataDir))`: ledger.db caught up with the log (close it after).
 * - `store.balances({ asOf?, merchantId? })`: each account's balance per merchant and currency.
 * - `trialBalance(store, asOf)`: per currency, each account's debits and credits, their totals,
 *   and what is wrong when they differ.
 * - `dailyTotals(log, { from, to, merchant? })`: the daily report's rows (day, merchant,
 *   currency: authorised, captured, refunded, charged back, settled, fees, net).
 * - `reconcile(log, files, onException)`: settlement files against the log: each exception
 *   (naming merchant, order and transaction) as found, then the matched totals per currency.
 * - `unknownTotals(log, merchant?)`: the money in UNKNOWN per currency.
 */
export { ledgerDbOf, openPostings } from './postings/open-postings';
export { PostingsStore, type Balance, type Unbalanced } from './postings/postings-store';
export {
  trialBalance,
  type Sides,
  type TrialBalance,
  type TrialBalanceCurrency,
} from './postings/trial-balance';
export { dailyTotals, type DailyQuery, type DailyRow } from './daily/daily-rows';
export { FIGURES, type DailyFigures } from './daily/daily-totals';
export { reconcile, type MatchedCurrency, type Reconciled } from './reconcile/reconcile';
export type { ExceptionKind, ReconcileException } from './reconcile/reconciliation';
export { SettlementFileError } from './reconcile/settlement-file-reader';
export { unknownTotals, type UnknownTotal } from './unknown/unknown-totals';
export { csvLine } from './csv';

// What the CLI's other commands build on: the log read a page at a time, the postings checked.
export { orderEventPages } from './order-event-pages';
export type { CatchUpProgress } from './postings/catch-up';
export { checkPostingsFollow, type PostingsDifference } from './postings/postings-follow';
