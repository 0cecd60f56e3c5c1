import { formatAmount } from '@gateway/domain';
import { html } from '@gateway/order-view';
import type { OrderSearchPage } from '@gateway/projections';
import type { AuditEntry, ConsoleSession } from '../sessions/console-db';
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
          ? html`<div class="table-wrap" tabindex="0" role="region" aria-label="UNKNOWN orders">
              <table>
                <caption>
                  Orders waiting for an outcome, newest first
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Order</th>
                    ${session.merchantId ? '' : html`<th scope="col">Merchant</th>`}
                    <th scope="col" class="money">UNKNOWN transactions</th>
                    <th scope="col" class="money">Amount UNKNOWN</th>
                    <th scope="col">Currency</th>
                    <th scope="col">Last updated (UTC)</th>
                  </tr>
                </thead>
                <tbody>
                  ${result.rows.map(
                    (row) =>
                      html`<tr>
                        <th scope="row"><a href="${orderHref(row)}">${row.orderId}</a></th>
                        ${session.merchantId ? '' : html`<td>${row.merchantId}</td>`}
                        <td class="money">${row.unknownTransactions}</td>
                        <td class="money">${formatAmount(row.totalUnknown)}</td>
                        <td>${row.currency}</td>
                        <td>${timeOf(row.lastUpdatedTime)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
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
  const columns = ['Time (UTC)', 'User', 'Role', 'Action', 'Target', 'Outcome', 'Client'];
  return page({
    title: 'Audit',
    session,
    section: 'audit',
    body: html`<h1>Audit</h1>
      ${session.role === 'merchant' ? html`<p>Your own actions.</p>` : ''}
      <div class="table-wrap" tabindex="0" role="region" aria-label="Audit trail">
        <table>
          <caption>
            Console actions, newest first
          </caption>
          <thead>
            <tr>
              ${columns.map((c) => html`<th scope="col">${c}</th>`)}
            </tr>
          </thead>
          <tbody>
            ${entries.map(
              (e) =>
                html`<tr>
                  <td>${timeOf(e.time)}</td>
                  <td>${e.username}</td>
                  <td>${e.role}</td>
                  <td>${e.action}</td>
                  <td>${e.target}</td>
                  <td>${e.outcome}</td>
                  <td>${e.client}</td>
                </tr>`,
            )}
          </tbody>
        </table>
      </div>
      ${next ? html`<nav class="pager" aria-label="Pages"><a href="${next}" rel="next">Older entries</a></nav>` : ''}`,
  });
}
