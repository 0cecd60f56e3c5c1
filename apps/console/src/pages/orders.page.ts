import { parseAmount } from '@gateway/domain';
import { merchantIdProblem } from '@gateway/merchants';
import { html, type Html } from '@gateway/order-view';
import {
  ORDER_SUMMARY_STATUSES,
  searchNeedsMerchant,
  type OrderSearch,
  type OrderSearchPage,
  type OrderSummaryCursor,
} from '@gateway/projections';
import type { ConsoleSession } from '../sessions/console-db';
import { page, problemSummary } from './layout';
import { orderTable } from './order-table';
import { isDay } from './utc-day';

export const PAGE_SIZE = 25;
const FIELDS = ['merchant', 'orderId', 'reference', 'status', 'from', 'to', 'amount', 'card'];

export type SearchForm = Partial<Record<(typeof FIELDS)[number], string>>;
export interface FieldError {
  readonly field: string;
  readonly message: string;
}
export interface ParsedSearch {
  readonly form: SearchForm;
  readonly errors: readonly FieldError[];
  /** Absent when the form has errors. */
  readonly search?: OrderSearch;
}

/**
 * The Orders form's query string as a search of the read model. A merchant user's search is
 * always of its own merchant, whatever the query says; dates are whole UTC days, both included.
 */
export function parseSearch(
  query: Record<string, unknown>,
  session: Pick<ConsoleSession, 'merchantId'>,
): ParsedSearch {
  const form: SearchForm = {};
  for (const field of FIELDS) {
    const value = query[field];
    const text = typeof value === 'string' ? value.trim() : undefined;
    if (text) form[field] = text;
  }
  const errors: FieldError[] = [];
  const fail = (field: string, message: string) => errors.push({ field, message });
  const merchantId = session.merchantId ?? form.merchant;
  if (!session.merchantId && form.merchant && merchantIdProblem(form.merchant))
    fail('merchant', 'A merchant id is 1-40 characters from 0-9 a-z A-Z - _.');
  if (form.orderId && form.orderId.length > 40)
    fail('orderId', 'An order id has 40 characters at most.');
  if (form.reference && form.reference.length > 200)
    fail('reference', 'A reference has 200 characters at most.');
  const status = ORDER_SUMMARY_STATUSES.find((s) => s === form.status);
  if (form.status && !status) fail('status', 'Choose a status from the list.');
  const amount = form.amount !== undefined ? parseAmount(form.amount) : undefined;
  if (form.amount !== undefined && (amount === undefined || amount < 0))
    fail('amount', 'An amount is a number such as 100 or 100.25.');
  if (form.card && !/^\d{4}$/.test(form.card)) fail('card', "A card's last four are 4 digits.");
  const from = dayStart(form.from, 0);
  const to = dayStart(form.to, 1);
  if (form.from && !from) fail('from', 'A date is written 2026-11-26.');
  if (form.to && !to) fail('to', 'A date is written 2026-11-26.');
  if (from && to && from >= to) fail('to', 'The last day is before the first.');
  const after = decodeCursor(query.after);
  const search: OrderSearch = {
    ...(merchantId ? { merchantId } : {}),
    ...(form.orderId ? { orderId: form.orderId } : {}),
    ...(form.reference ? { reference: form.reference } : {}),
    ...(form.card ? { cardLastFour: form.card } : {}),
    ...(amount !== undefined ? { amount } : {}),
    ...(status ? { status } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(after ? { after } : {}),
    limit: PAGE_SIZE,
  };
  if (searchNeedsMerchant(search))
    fail('merchant', 'Name the merchant to search by reference, amount or card.');
  return errors.length ? { form, errors } : { form, errors, search };
}

/** A date's first instant (plus `days`), ISO 8601 UTC as the read model stores times. */
function dayStart(date: string | undefined, days: number): string | undefined {
  if (!date || !isDay(date)) return undefined;
  return new Date(Date.parse(`${date}T00:00:00.000Z`) + days * 86_400_000).toISOString();
}

export function encodeCursor(cursor: OrderSummaryCursor): string {
  return Buffer.from(JSON.stringify([cursor.creationTime, cursor.orderId])).toString('base64url');
}

/** A cursor from the query; anything else is the first page. */
export function decodeCursor(value: unknown): OrderSummaryCursor | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const [creationTime, orderId] = JSON.parse(
      Buffer.from(value, 'base64url').toString(),
    ) as unknown[];
    if (typeof creationTime === 'string' && typeof orderId === 'string')
      return { creationTime, orderId };
  } catch {
    // a damaged link: the first page
  }
  return undefined;
}

/** The Orders page: the search form, what was wrong with it, and a page of results. */
export function ordersPage(
  session: ConsoleSession,
  parsed: ParsedSearch,
  result: OrderSearchPage | undefined,
): string {
  const { form, errors } = parsed;
  const query = new URLSearchParams(form as Record<string, string>);
  const next = result?.next
    ? `/orders?${new URLSearchParams([...query, ['after', encodeCursor(result.next)]])}`
    : undefined;
  const first = `/orders?${query}`;
  return page({
    title: 'Orders',
    session,
    section: 'orders',
    body: html`<h1>Orders</h1>
      ${errors.length ? problemSummary('search', errors.map(linkToField)) : ''}
      ${searchForm(session, form, errors)}
      ${result ? orderTable('Orders, newest first', result.rows, !session.merchantId) : ''}
      <nav class="pager" aria-label="Pages">
        ${parsed.search?.after ? html`<a href="${first}">First page</a>` : ''}
        ${next ? html`<a href="${next}" rel="next">Next page</a>` : ''}
      </nav>`,
  });
}

/** A problem of the search, linked to its field: the link moves focus there. */
const linkToField = (e: FieldError): Html => html`<a href="#${e.field}">${e.message}</a>`;

function searchForm(
  session: ConsoleSession,
  form: SearchForm,
  errors: readonly FieldError[],
): Html {
  const field = (name: string, label: string, type = 'text', hint = '') => {
    const invalid = errors.some((e) => e.field === name);
    return html`<div>
      <label for="${name}">${label}</label>
      <input
        id="${name}"
        name="${name}"
        type="${type}"
        value="${form[name] ?? ''}"
        ${invalid ? html`aria-invalid="true"` : ''}
        ${hint ? html`aria-describedby="${name}-hint"` : ''}
      />
      ${hint ? html`<p class="hint" id="${name}-hint">${hint}</p>` : ''}
    </div>`;
  };
  return html`<form class="search" method="get" action="/orders" role="search">
    ${session.merchantId ? '' : field('merchant', 'Merchant', 'text', 'Every merchant when empty')}
    ${field('orderId', 'Order id')} ${field('reference', 'Reference')}
    <div>
      <label for="status">Status</label>
      <select id="status" name="status">
        <option value="">Any status</option>
        ${ORDER_SUMMARY_STATUSES.map(
          (s) =>
            html`<option value="${s}" ${form.status === s ? html`selected` : ''}>${s}</option>`,
        )}
      </select>
    </div>
    ${field('from', 'Created from', 'date', 'UTC day, included')}
    ${field('to', 'Created to', 'date', 'UTC day, included')}
    ${field('amount', 'Amount', 'text', 'Order amount, such as 100.00')}
    ${field('card', "Card's last four", 'text')}
    <div>
      <span class="label-space" aria-hidden="true"></span><button type="submit">Search</button>
    </div>
  </form>`;
}
