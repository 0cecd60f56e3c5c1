import { html, type Html } from '@gateway/order-view';
import type {
  DeliveryDetail,
  DeliveryPage,
  DeliveryStatus,
  DeliverySummary,
} from '@gateway/webhooks';
import type { ConsoleSession } from '../sessions/console-db';
import { csrfField, page, type Section } from './layout';
import { orderHref, scrollingTable, timeOf } from './order-table';

/** The Webhooks form: a state and, for users who see every merchant, a merchant. */
export interface DeliveryFilter {
  readonly status?: DeliveryStatus;
  readonly merchant?: string;
}

const STATES: ReadonlyArray<[DeliveryStatus, string]> = [
  ['PENDING', 'pending or retrying'],
  ['DELIVERED', 'delivered'],
  ['DEAD_LETTERED', 'dead-lettered'],
];

/** The state in words: a pending delivery that failed before is retrying. */
function stateBadge(d: Pick<DeliverySummary, 'status' | 'attempts'>): Html {
  if (d.status === 'DELIVERED') return html`<span class="badge good">delivered</span>`;
  if (d.status === 'DEAD_LETTERED') return html`<span class="badge bad">dead-lettered</span>`;
  return d.attempts > 0
    ? html`<span class="badge warn">retrying</span>`
    : html`<span class="badge neutral">pending</span>`;
}

export function deliveryHref(id: string): string {
  return `/webhooks/${encodeURIComponent(id)}`;
}

/** Where "redeliver every dead-lettered one" asks for confirmation, for this filter's merchant. */
function deadLetteredHref(filter: DeliveryFilter): string {
  return filter.merchant
    ? `/webhooks/redeliver-dead-lettered?merchant=${encodeURIComponent(filter.merchant)}`
    : '/webhooks/redeliver-dead-lettered';
}

function deadLetteredLabel(filter: DeliveryFilter): string {
  const of = filter.merchant ? ` of ${filter.merchant}` : '';
  return `Redeliver every dead-lettered delivery${of}`;
}

/** Deliveries newest first, with the filter form; operators get the redelivery of dead letters. */
export function webhooksPage(
  session: ConsoleSession,
  filter: DeliveryFilter,
  result: DeliveryPage,
  notice?: string,
): string {
  const showMerchant = !session.merchantId;
  const query = new URLSearchParams(filter as Record<string, string>);
  const next =
    result.next !== undefined
      ? `/webhooks?${new URLSearchParams([...query, ['before', String(result.next)]])}`
      : undefined;
  return page({
    title: 'Webhooks',
    session,
    section: 'webhooks',
    body: html`<h1>Webhooks</h1>
      ${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
      <form class="search" method="get" action="/webhooks" role="search">
        ${
          showMerchant
            ? html`<div>
                <label for="merchant">Merchant</label>
                <input
                  id="merchant"
                  name="merchant"
                  value="${filter.merchant ?? ''}"
                  aria-describedby="merchant-hint"
                />
                <p class="hint" id="merchant-hint">Every merchant when empty</p>
              </div>`
            : ''
        }
        <div>
          <label for="status">State</label>
          <select id="status" name="status">
            <option value="">Any state</option>
            ${STATES.map(
              ([value, label]) =>
                html`<option value="${value}" ${filter.status === value ? html`selected` : ''}>
                  ${label}
                </option>`,
            )}
          </select>
        </div>
        <div>
          <span class="label-space" aria-hidden="true"></span><button type="submit">Show</button>
        </div>
      </form>
      ${
        session.role === 'operator'
          ? html`<p><a href="${deadLetteredHref(filter)}">${deadLetteredLabel(filter)}</a></p>`
          : ''
      }
      ${
        result.deliveries.length
          ? deliveryTable(result.deliveries, showMerchant)
          : html`<p>No deliveries match.</p>`
      }
      ${next ? html`<nav class="pager" aria-label="Pages"><a href="${next}" rel="next">Older deliveries</a></nav>` : ''}`,
  });
}

/** Deliveries as a table (the Webhooks page, an order's page). */
export function deliveryTable(
  deliveries: readonly DeliverySummary[],
  showMerchant: boolean,
  order = 'newest first',
): Html {
  return scrollingTable(
    'Webhook deliveries',
    `Webhook deliveries, ${order}`,
    html`<th scope="col">Delivery</th>
      <th scope="col">Order</th>
      ${showMerchant ? html`<th scope="col">Merchant</th>` : ''}
      <th scope="col">Event</th>
      <th scope="col">Target</th>
      <th scope="col">State</th>
      <th scope="col" class="money">Attempts</th>
      <th scope="col">Last status</th>
      <th scope="col">Recorded (UTC)</th>`,
    deliveries.map(
      (d) =>
        html`<tr>
          <th scope="row"><a href="${deliveryHref(d.id)}">${d.id}</a></th>
          <td><a href="${orderHref(d)}">${d.orderId}</a></td>
          ${showMerchant ? html`<td>${d.merchantId}</td>` : ''}
          <td>${d.eventType}</td>
          <td>${d.url}</td>
          <td>${stateBadge(d)}</td>
          <td class="money">${d.attempts}</td>
          <td>${d.lastStatusCode ?? d.lastError ?? ''}</td>
          <td>${timeOf(d.createdAt)}</td>
        </tr>`,
    ),
  );
}

/** One delivery with every attempt; operators get its redelivery. */
export function deliveryPage(session: ConsoleSession, d: DeliveryDetail, notice?: string): string {
  return page({
    title: `Delivery ${d.id}`,
    session,
    section: 'webhooks',
    body: html`<h1>Delivery ${d.id}</h1>
      ${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
      <dl class="facts">
        <dt>State</dt>
        <dd>${stateBadge(d)}</dd>
        <dt>Order</dt>
        <dd><a href="${orderHref(d)}">${d.orderId}</a> (merchant ${d.merchantId})</dd>
        <dt>Event</dt>
        <dd>${d.eventType}, transaction ${d.transactionId}</dd>
        <dt>Target</dt>
        <dd>${d.url}</dd>
        <dt>Recorded (UTC)</dt>
        <dd>${timeOf(d.createdAt)}</dd>
        ${
          d.nextAttemptAt
            ? html`<dt>Next attempt (UTC)</dt>
                <dd>${timeOf(d.nextAttemptAt)}</dd>`
            : ''
        }
        ${
          d.deliveredAt
            ? html`<dt>Delivered (UTC)</dt>
                <dd>${timeOf(d.deliveredAt)}</dd>`
            : ''
        }
      </dl>
      ${
        session.role === 'operator'
          ? html`<p><a href="${deliveryHref(d.id)}/redeliver">Redeliver this notification</a></p>`
          : ''
      }
      ${
        d.attemptLog.length
          ? scrollingTable(
              'Attempts',
              'Attempts, first to last',
              html`<th scope="col">Attempt</th>
                <th scope="col">Started (UTC)</th>
                <th scope="col">Outcome</th>
                <th scope="col">Status code</th>
                <th scope="col" class="money">Latency (ms)</th>
                <th scope="col">Error</th>`,
              d.attemptLog.map(
                (a) =>
                  html`<tr>
                    <th scope="row">${a.attempt}</th>
                    <td>${timeOf(a.startedAt)}</td>
                    <td>${a.outcome}</td>
                    <td>${a.statusCode ?? ''}</td>
                    <td class="money">${a.latencyMs}</td>
                    <td>${a.error ?? ''}</td>
                  </tr>`,
              ),
            )
          : html`<p>No attempt yet.</p>`
      }`,
  });
}

/** The step before an action: what will happen, a POST with the CSRF token, and a way back. */
export function confirmPage(
  session: ConsoleSession,
  options: {
    title: string;
    what: Html | string;
    action: string;
    button: string;
    back: string;
    section: Section;
  },
): string {
  const { title, what, action, button, back, section } = options;
  return page({
    title,
    session,
    section,
    body: html`<h1>${title}</h1>
      <p>${what}</p>
      <form method="post" action="${action}">
        ${csrfField(session)}
        <button type="submit">${button}</button>
        <a href="${back}">Cancel</a>
      </form>`,
  });
}
