import { formatAmount } from '@gateway/domain';
import { html } from '@gateway/order-view';
import type { OrderSummary } from '@gateway/projections';
import type { ConsoleSession } from '../sessions/console-db';
import { page } from './layout';
import { statusBadge, timeOf } from './order-table';

/** An order's header: status and totals from the read model (its timeline comes next round). */
export function orderPage(session: ConsoleSession, order: OrderSummary): string {
  const money = (amount: number) => `${order.currency} ${formatAmount(amount)}`;
  const facts: [string, unknown][] = [
    ['Merchant', order.merchantId],
    ['Status', statusBadge(order.status)],
    ['Reference', order.reference ?? 'none'],
    ['Amount', money(order.amount)],
    ['Authorized', money(order.totalAuthorized)],
    ['Captured', money(order.totalCaptured)],
    ['Refunded', money(order.totalRefunded)],
    ['Charged back', money(order.totalChargeback)],
    ['UNKNOWN outcomes', `${order.unknownTransactions} (${money(order.totalUnknown)})`],
    ['Card', order.cardLastFour ? `•••• ${order.cardLastFour}` : 'none'],
    ['Transactions', order.transactionCount],
    ['Created (UTC)', timeOf(order.creationTime)],
    ['Last updated (UTC)', timeOf(order.lastUpdatedTime)],
  ];
  return page({
    title: `Order ${order.orderId}`,
    session,
    section: 'orders',
    body: html`<h1>Order ${order.orderId}</h1>
      <dl class="facts">
        ${facts.map(
          ([term, value]) =>
            html`<dt>${term}</dt>
              <dd>${value}</dd>`,
        )}
      </dl>
      <h2>Timeline</h2>
      <p>
        Coming: every event of the order with its time and cause, and the order as of any of them.
      </p>
      <p><a href="/orders">Back to the orders</a></p>`,
  });
}
