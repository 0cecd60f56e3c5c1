import { formatAmount, type Order } from '@gateway/domain';
import { html, type Html, type ResponseView } from '@gateway/order-view';
import { orderResponses } from '../orders/order-responses';
import type { TimelineEntry } from '../orders/timeline';
import type { TimelinePart } from '../orders/timeline-part';
import type { ConsoleSession } from '../sessions/console-db';
import type { DeliverySummary } from '@gateway/webhooks';
import { page } from './layout';
import { deliveryTable } from './webhooks.page';
import { orderHref, scrollingTable, statusBadge, timeOf } from './order-table';

type Json = Record<string, unknown>;

export interface OrderPageModel {
  /** The order folded up to `asOf`, or to its last event. */
  readonly order: Order;
  /** The events of the part shown, in stream order. */
  readonly timeline: readonly TimelineEntry[];
  readonly part: TimelinePart;
  /** The transactions recorded by the part's events: their responses are on the page. */
  readonly recorded: ReadonlySet<string>;
  /** The event chosen on the timeline (on this part or another); undefined: the order now. */
  readonly chosen?: TimelineEntry;
  /** The mask a GET with the merchant's credentials applies. */
  readonly view: ResponseView;
  /** A test merchant's order (ids starting with TEST): an operator may raise a dispute on it. */
  readonly testMerchant: boolean;
  /** The webhooks sent of the order (undefined: the delivery store cannot be read now). */
  readonly deliveries?: readonly DeliverySummary[];
}

/**
 * An order: header, a part of its timeline with links to the others, and the order as Retrieve
 * Order shows it (then, when a point of the timeline is chosen): its fields, and the responses of
 * the transactions the part's events recorded, under the GET's mask. So the page stays the same
 * size however long the order: every transaction's response is on the part with its event.
 */
export function orderPage(session: ConsoleSession, model: OrderPageModel): string {
  const { order, timeline, chosen, part } = model;
  const { fields, transactions } = orderResponses(order, model.view, model.recorded);
  const asOf = chosen?.revision;
  const href = orderHref(order);
  return page({
    title: `Order ${order.orderId}`,
    session,
    section: 'orders',
    body: html`<h1>Order ${order.orderId}</h1>
      ${
        chosen
          ? html`<p class="as-of" role="status">
              As of event ${chosen.revision + 1}, ${chosen.type} at ${timeOf(chosen.time)} UTC.
              <a href="${href}">Show the order now</a>
              ${
                timeline.some((e) => e.revision === chosen.revision)
                  ? ''
                  : html`<a href="${href}?asOf=${chosen.revision}#timeline"
                      >Show the event on the timeline</a
                    >`
              }
            </p>`
          : ''
      }
      ${header(order, fields)}
      ${
        session.role === 'operator' && model.testMerchant && !chosen && order.totals.captured > 0
          ? html`<p><a href="${href}/dispute">Raise a test dispute</a></p>`
          : ''
      }
      <h2 id="timeline">Timeline</h2>
      ${timelineTable(timeline, part, href, asOf)} ${partNavigation(part, href, asOf)}
      <h2>Webhooks</h2>
      ${
        model.deliveries === undefined
          ? html`<p>
              Webhook deliveries cannot be read now: the gateway has sent none yet, or its store is
              not readable.
            </p>`
          : model.deliveries.length
            ? deliveryTable(model.deliveries, false, 'in the order of its events')
            : html`<p>No webhook for this order.</p>`
      }
      <h2>${chosen ? 'Retrieve Order then' : 'Retrieve Order'}</h2>
      <p class="hint">As a GET with the merchant's credentials shows it, card number masked.</p>
      <details>
        <summary>The order's fields</summary>
        <pre>${JSON.stringify(fields, null, 2)}</pre>
      </details>
      <h3>Transactions of events ${count(part.first + 1)} to ${count(part.last + 1)}</h3>
      ${
        transactions.length
          ? html`<p class="hint">
              The transactions these events recorded; every other one is with its event on its part
              of the timeline.
            </p>`
          : html`<p>
              ${chosen ? 'None of these events had recorded a transaction then.' : 'These events recorded no transaction.'}
            </p>`
      }
      ${transactions.map((response) => {
        const tx = response.transaction as Json;
        return html`<details>
          <summary>
            Transaction ${String(tx.id)}: ${String(tx.type)}, ${String(response.result)}
          </summary>
          <pre>${JSON.stringify(response, null, 2)}</pre>
        </details>`;
      })}
      <p><a href="/orders">Back to the orders</a></p>`,
  });
}

function header(order: Order, rendered: Json): Html {
  const money = (amount: number) => `${order.currency} ${formatAmount(amount)}`;
  const card = (rendered.sourceOfFunds as { provided?: { card?: { number?: string } } } | undefined)
    ?.provided?.card?.number;
  const facts: [string, unknown][] = [
    ['Merchant', order.merchantId],
    ['Status', statusBadge(order.status)],
    ['Amount', money(order.amount)],
    ['Authorized', money(order.totals.authorized)],
    ['Captured', money(order.totals.captured)],
    ['Refunded', money(order.totals.refunded)],
    ['Charged back', money(order.totals.chargedBack ?? 0)],
    ['Card', card ?? 'none'],
    ['Transactions', order.transactions.length],
    ['Created (UTC)', timeOf(order.creationTime)],
    ['Last updated (UTC)', timeOf(order.lastUpdatedTime)],
  ];
  return html`<dl class="facts">
    ${facts.map(
      ([term, value]) =>
        html`<dt>${term}</dt>
          <dd>${value}</dd>`,
    )}
  </dl>`;
}

/** One formatter: toLocaleString makes its own each call (~0.2 ms). */
const NUMBER = new Intl.NumberFormat('en-US');
const count = (n: number) => NUMBER.format(n);

/**
 * Links to the first, earlier, later and latest parts of the timeline, keeping the
 * point chosen: the order as of it stays while the timeline moves.
 */
function partNavigation(
  { number, count: parts }: TimelinePart,
  href: string,
  asOf?: number,
): Html | '' {
  const at = (n: number) => `${href}?${asOf === undefined ? '' : `asOf=${asOf}&`}part=${n}`;
  // First and Latest only where they go further than Earlier and Later.
  const links: [string, number, string, boolean][] = [
    ['First events', 1, '', number > 2],
    ['Earlier events', number - 1, 'prev', number > 1],
    ['Later events', number + 1, 'next', number < parts],
    ['Latest events', parts, '', number < parts - 1],
  ];
  const shown = links.filter(([, , , useful]) => useful);
  if (shown.length === 0) return '';
  return html`<nav class="pager" aria-label="Parts of the timeline">
    ${shown.map(
      ([label, n, rel]) => html`<a href="${at(n)}" ${rel ? html`rel="${rel}"` : ''}>${label}</a>`,
    )}
  </nav>`;
}

/** One row per event; its name links to the order as of that event. */
function timelineTable(
  timeline: readonly TimelineEntry[],
  part: TimelinePart,
  href: string,
  asOf?: number,
): Html {
  const parts = part.count > 1 ? ` (part ${count(part.number)} of ${count(part.count)})` : '';
  return scrollingTable(
    'Timeline',
    `Events ${count(part.first + 1)} to ${count(part.last + 1)} of ${count(part.events)}${parts}, oldest first: choose one to see the order as of it`,
    html`<th scope="col">#</th>
      <th scope="col">Time (UTC)</th>
      <th scope="col">Event</th>
      <th scope="col">Cause</th>
      <th scope="col">Request or fact</th>
      <th scope="col">Transactions</th>`,
    timeline.map(
      (entry) =>
        html`<tr ${entry.revision === asOf ? html`class="chosen"` : ''}>
          <td>${entry.revision + 1}</td>
          <td>
            <time datetime="${entry.time}">${entry.time.slice(0, 23).replace('T', ' ')}</time>
          </td>
          <th scope="row">
            <a
              href="${href}?asOf=${entry.revision}"
              ${entry.revision === asOf ? html`aria-current="true"` : ''}
              >${entry.type}</a
            >
          </th>
          <td><span class="badge cause-${entry.cause}">${entry.cause}</span></td>
          <td>${entry.action ?? ''}</td>
          <td>${entry.transactions.join(', ')}</td>
        </tr>`,
    ),
  );
}
