import { formatAmount } from '@gateway/domain';
import { html } from '@gateway/order-view';
import type { OrderSearchPage } from '@gateway/projections';
import type { AuditEntry, ConsoleSession } from '../sessions/console-db';
import { dataTable, money } from './data-table';
import { page } from './layout';
import { orderHref, orderTable, timeOf } from './order-table';

/** Orders with an open dispute, and those the acquirer charged back, newest first. */
export function disputesPage(
  session: ConsoleSession,
  open: OrderSearchPage,
  chargedBack: OrderSearchPage,
): string {
  const more = (status: string, result: OrderSearchPage) =>
    result.next ? html`<p><a href="/orders?status=${status}">All of them in Orders</a></p>` : '';
  return page({
    title: 'Disputes',
    session,
    section: 'disputes',
    body: html`<h1>Disputes</h1>
      <h2>Open disputes</h2>
      ${orderTable('Orders with an open dispute', open.rows, !session.merchantId)}
      ${more('DISPUTED', open)}
      <h2>Charged back</h2>
      ${orderTable('Orders charged back', chargedBack.rows, !session.merchantId)}
      ${more('CHARGEBACK_PROCESSED', chargedBack)}`,
  });
}

/** Orders with a transaction whose outcome is UNKNOWN: the janitor asks the acquirer about them. */
export function unknownPage(
  session: ConsoleSession,
  result: OrderSearchPage,
  next?: string,
): string {
  return page({
    title: 'UNKNOWN transactions',
    session,
    section: 'unknown',
    body: html`<h1>UNKNOWN transactions</h1>
      <p>
        Orders holding a transaction whose outcome the acquirer has not told yet. The janitor asks
        the acquirer about each until it learns the outcome.
      </p>
      ${
        result.rows.length
          ? dataTable({
              region: 'UNKNOWN orders',
              caption: 'Orders waiting for an outcome, newest first',
              columns: [
                'Order',
                ...(session.merchantId ? [] : ['Merchant']),
                money('UNKNOWN transactions'),
                money('Amount UNKNOWN'),
                'Currency',
                'Last updated (UTC)',
              ],
              rows: result.rows.map((row) => [
                html`<a href="${orderHref(row)}">${row.orderId}</a>`,
                ...(session.merchantId ? [] : [row.merchantId]),
                row.unknownTransactions,
                formatAmount(row.totalUnknown),
                row.currency,
                timeOf(row.lastUpdatedTime),
              ]),
            })
          : html`<p>None: every outcome is known.</p>`
      }
      ${next ? html`<nav class="pager" aria-label="Pages"><a href="${next}" rel="next">Next page</a></nav>` : ''}`,
  });
}

/** The audit trail, newest first: every sign-in, sign-out and action, with its outcome. */
export function auditPage(
  session: ConsoleSession,
  entries: readonly AuditEntry[],
  next?: string,
): string {
  return page({
    title: 'Audit',
    session,
    section: 'audit',
    body: html`<h1>Audit</h1>
      ${session.role === 'merchant' ? html`<p>Your own actions.</p>` : ''}
      ${dataTable({
        region: 'Audit trail',
        caption: 'Console actions, newest first',
        columns: ['Time (UTC)', 'User', 'Role', 'Action', 'Target', 'Outcome', 'Client'],
        rowHeads: false,
        rows: entries.map((e) => [
          timeOf(e.time),
          e.username,
          e.role,
          e.action,
          e.target,
          e.outcome,
          e.client,
        ]),
      })}
      ${next ? html`<nav class="pager" aria-label="Pages"><a href="${next}" rel="next">Older entries</a></nav>` : ''}`,
  });
}
