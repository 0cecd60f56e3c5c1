import { formatAmount, type OrderStatus } from '@gateway/domain';
import { html, type Html } from '@gateway/order-view';
import type { OrderSummary } from '@gateway/projections';

const TONE: Readonly<Record<OrderStatus, 'good' | 'bad' | 'warn' | 'neutral'>> = {
  AUTHORIZED: 'good',
  CAPTURED: 'good',
  PARTIALLY_CAPTURED: 'good',
  VERIFIED: 'good',
  AUTHENTICATED: 'good',
  PARTIALLY_REFUNDED: 'neutral',
  REFUNDED: 'neutral',
  CANCELLED: 'neutral',
  INITIATED: 'neutral',
  AUTHENTICATION_INITIATED: 'neutral',
  FAILED: 'bad',
  AUTHENTICATION_UNSUCCESSFUL: 'bad',
  CHARGEBACK_PROCESSED: 'bad',
  DISPUTED: 'warn',
};

/** The status as text in a badge: the colour only repeats what the text says. */
export function statusBadge(status: OrderStatus): Html {
  return html`<span class="badge ${TONE[status]}">${status}</span>`;
}

/** Where an order's page is; merchant and order ids are path segments, encoded. */
export function orderHref(row: Pick<OrderSummary, 'merchantId' | 'orderId'>): string {
  return `/orders/${encodeURIComponent(row.merchantId)}/${encodeURIComponent(row.orderId)}`;
}

/** Orders as a table with headers; the merchant column only for users who see several. */
export function orderTable(
  caption: string,
  rows: readonly OrderSummary[],
  showMerchant: boolean,
): Html {
  if (rows.length === 0) return html`<p>No orders match.</p>`;
  return scrollingTable(
    caption,
    caption,
    html`<th scope="col">Order</th>
      ${showMerchant ? html`<th scope="col">Merchant</th>` : ''}
      <th scope="col">Reference</th>
      <th scope="col">Status</th>
      <th scope="col">Currency</th>
      <th scope="col" class="money">Amount</th>
      <th scope="col" class="money">Authorized</th>
      <th scope="col" class="money">Captured</th>
      <th scope="col" class="money">Refunded</th>
      <th scope="col">Card</th>
      <th scope="col">Created (UTC)</th>`,
    rows.map(
      (row) =>
        html`<tr>
          <th scope="row"><a href="${orderHref(row)}">${row.orderId}</a></th>
          ${showMerchant ? html`<td>${row.merchantId}</td>` : ''}
          <td>${row.reference ?? ''}</td>
          <td>${statusBadge(row.status)}</td>
          <td>${row.currency}</td>
          <td class="money">${formatAmount(row.amount)}</td>
          <td class="money">${formatAmount(row.totalAuthorized)}</td>
          <td class="money">${formatAmount(row.totalCaptured)}</td>
          <td class="money">${formatAmount(row.totalRefunded)}</td>
          <td>${row.cardLastFour ? `•••• ${row.cardLastFour}` : ''}</td>
          <td>${timeOf(row.creationTime)}</td>
        </tr>`,
    ),
  );
}

/**
 * A table with its caption and column headers, in a region that scrolls sideways when the window
 * is narrow (zoom): focusable, so it scrolls by keys. `foot`: a totals row.
 */
export function scrollingTable(
  label: string,
  caption: string,
  head: Html,
  rows: Html[],
  { className, foot }: { className?: string; foot?: Html } = {},
): Html {
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="${label}">
    <table${className ? html` class="${className}"` : ''}>
      <caption>
        ${caption}
      </caption>
      <thead>
        <tr>
          ${head}
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
      ${
        foot
          ? html`<tfoot>
              ${foot}
            </tfoot>`
          : ''
      }
    </table>
  </div>`;
}

/** An ISO time as "2026-11-26 10:05:00", UTC. */
export function timeOf(iso: string): string {
  return iso.slice(0, 19).replace('T', ' ');
}
