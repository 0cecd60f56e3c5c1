import { formatAmount } from '@gateway/domain';
import type { DailyRow, MatchedCurrency, TrialBalance } from '@gateway/ledger';
import { html, type Html } from '@gateway/order-view';
import { dataTable, money } from '../pages/data-table';
import { page, problemSummary } from '../pages/layout';
import type { ConsoleSession } from '../sessions/console-db';
import { barChart } from './bar-chart';
import type { Reconciliation } from './finance-data';
import type { DailyForm } from './finance-forms';

/** The figures of the daily table, in its column order, with their headings. */
export const DAILY_FIGURES = [
  ['authorised', 'Authorised'],
  ['captured', 'Captured'],
  ['refunded', 'Refunded'],
  ['chargedBack', 'Charged back'],
  ['settled', 'Settled'],
  ['fees', 'Fees'],
  ['net', 'Net'],
] as const satisfies readonly (readonly [keyof DailyRow, string])[];

/** What the chart draws: money moving, not what was only authorised, nor the fees (net shows them). */
const CHARTED = ['captured', 'refunded', 'chargedBack', 'settled', 'net'] as const;

/** The forms' button, below the labels' line like the fields beside it. */
const SHOW = html`<div>
  <span class="label-space"></span>
  <button type="submit">Show</button>
</div>`;

/**
 * A Finance page: its sub-navigation marks the current one `aria-current="true"` (the current item
 * of the set), the banner's Finance link being the page's `aria-current="page"`.
 */
function financePage(session: ConsoleSession, title: string, body: Html): string {
  const links = [
    ['Daily totals', '/finance'],
    ...(session.merchantId
      ? []
      : [
          ['Trial balance', '/finance/trial-balance'],
          ['Reconciliation', '/finance/reconcile'],
        ]),
  ];
  return page({
    title,
    session,
    section: 'finance',
    body: html`<nav class="subnav" aria-label="Finance">
        <ul>
          ${links.map(
            ([label, href]) =>
              html`<li>
                <a href="${href}" ${label === title ? html`aria-current="true"` : ''}>${label}</a>
              </li>`,
          )}
        </ul>
      </nav>
      <h1>${title}</h1>
      ${body}`,
  });
}

/** Daily totals: the form, then per currency the chart, its figures, and the rows. */
export function dailyPage(
  session: ConsoleSession,
  form: DailyForm,
  rows: readonly DailyRow[] | undefined,
): string {
  const query = `from=${form.from}&to=${form.to}`;
  const scope = session.merchantId ? `Merchant ${session.merchantId}` : 'Every merchant';
  const currencies = [...new Set((rows ?? []).map((r) => r.currency))].sort();
  return financePage(
    session,
    'Daily totals',
    html`${form.errors.length ? problemSummary('form', form.errors) : ''}
      <form class="search" method="get" action="/finance">
        <div>
          <label for="from">From (UTC day)</label>
          <input id="from" name="from" type="date" value="${form.from}" required />
        </div>
        <div>
          <label for="to">To (UTC day, included)</label>
          <input id="to" name="to" type="date" value="${form.to}" required />
        </div>
        ${SHOW}
      </form>
      ${
        rows === undefined
          ? ''
          : html`<p>
                ${scope}, ${form.from} to ${form.to}, by the gateway's time of each fact.
                <a href="/finance/daily.csv?${query}" download>Download as CSV</a>
              </p>
              ${currencies.length ? currencies.map((c) => currencySection(c, form, rows)) : html`<p>No money moved in these days.</p>`}`
      }`,
  );
}

function currencySection(currency: string, form: DailyForm, rows: readonly DailyRow[]): Html {
  const mine = rows.filter((r) => r.currency === currency);
  // Each day's charted sums over the merchants, in one pass over the rows.
  const sums = new Map<string, number[]>();
  for (const row of mine) {
    const day =
      sums.get(row.day) ??
      sums
        .set(
          row.day,
          CHARTED.map(() => 0),
        )
        .get(row.day)!;
    CHARTED.forEach((key, i) => (day[i] += row[key]));
  }
  const days = [...sums.keys()].sort();
  const series = CHARTED.map((key, i) => ({
    key,
    label: DAILY_FIGURES.find(([k]) => k === key)![1],
    values: days.map((day) => sums.get(day)![i]),
  }));
  const merchants = !!mine.find((r) => r.merchant !== mine[0].merchant);
  return html`<section aria-labelledby="cur-${currency}">
    <h2 id="cur-${currency}">${currency}</h2>
    <div class="chart-and-table">
      <figure>
        ${barChart({
          id: `chart-${currency}`,
          title: `Daily totals in ${currency}, ${form.from} to ${form.to}`,
          description: `Bars per day: ${series.map((s) => s.label.toLowerCase()).join(', ')}. The table beside the chart has the same figures.`,
          days,
          series,
        })}
      </figure>
      ${dataTable({
        region: `Chart figures in ${currency}`,
        className: 'chart-figures',
        caption: `The chart's figures in ${currency}`,
        columns: ['Day', ...series.map((s) => money(s.label))],
        rows: days.map((day, d) => [day, ...series.map((s) => formatAmount(s.values[d]))]),
      })}
    </div>
    ${dataTable({
      region: `Daily totals in ${currency}`,
      className: 'daily',
      caption: `Daily totals in ${currency}${merchants ? ', per merchant' : ''}`,
      columns: ['Day', 'Merchant', ...DAILY_FIGURES.map(([, label]) => money(label))],
      rows: mine.map((row) => [
        row.day,
        row.merchant,
        ...DAILY_FIGURES.map(([key]) => formatAmount(row[key])),
      ]),
    })}
  </section>`;
}

/** The trial balance as of a time: per currency, each account's sides and their totals. */
export function trialBalancePage(
  session: ConsoleSession,
  asOfText: string,
  error: string | undefined,
  report: TrialBalance | undefined,
): string {
  return financePage(
    session,
    'Trial balance',
    html`${error ? problemSummary('form', [error]) : ''}
      <form class="search" method="get" action="/finance/trial-balance">
        <div>
          <label for="asOf">As of (UTC day or time)</label>
          <input id="asOf" name="asOf" value="${asOfText}" aria-describedby="asOf-hint" />
          <p class="hint" id="asOf-hint">A day (its end) or YYYY-MM-DDTHH:MM</p>
        </div>
        ${SHOW}
      </form>
      ${report ? trialBalanceReport(report) : ''}`,
  );
}

function trialBalanceReport(report: TrialBalance): Html {
  const broken = report.unbalancedEntry;
  const verdict = report.balanced
    ? html`<p class="verdict">
        <span class="badge good">Balanced</span> debits equal credits in every currency as of
        ${report.asOf}.
      </p>`
    : broken
      ? html`<p class="verdict" role="alert">
          <span class="badge bad">Unbalanced</span> entry ${broken.entryId} (${broken.currency}):
          debits less credits ${formatAmount(broken.imbalance)}.
        </p>`
      : html`<p class="verdict" role="alert">
          <span class="badge bad">Unbalanced</span> totals in ${report.unequal.join(', ')}: every
          entry balances, the hourly balances do not (delete ledger.db to rebuild it).
        </p>`;
  return html`${verdict}
  ${report.currencies.map(({ currency, accounts, total }) =>
    dataTable({
      region: `Trial balance in ${currency}`,
      caption: `${currency}${report.unequal.includes(currency) ? ' (unbalanced)' : ''}`,
      columns: ['Account', money('Debit'), money('Credit')],
      rows: accounts.map((a) => [a.account, formatAmount(a.debit), formatAmount(a.credit)]),
      total: ['Total', formatAmount(total.debit), formatAmount(total.credit)],
    }),
  )}`;
}

/** Reconciliation: the files found, a button to run it, then exceptions and matched totals. */
export function reconcilePage(
  session: ConsoleSession,
  directory: string,
  files: readonly string[],
  result: Reconciliation | undefined,
): string {
  return financePage(
    session,
    'Reconciliation',
    html`<p>
        Settlement files in <code>${directory}</code>: ${files.length ? files.join(', ') : 'none'}.
        The acquirer writes them (<code
          >npm run acquirer -- settle --merchant M --date D --out FILE</code
        >).
      </p>
      <form method="get" action="/finance/reconcile">
        <input type="hidden" name="run" value="1" />
        <button type="submit" ${files.length ? '' : html`disabled`}>
          Reconcile ${files.length} files
        </button>
      </form>
      ${result ? reconcileReport(result) : ''}`,
  );
}

function reconcileReport({ exceptions, matched }: Reconciliation): Html {
  return html`<p class="verdict">
      ${
        exceptions.length
          ? html`<span class="badge bad">${exceptions.length} exceptions</span>`
          : html`<span class="badge good">Everything matched</span>`
      }
      <a href="/finance/reconcile.csv" download>Download the exceptions as CSV</a>
    </p>
    ${
      exceptions.length
        ? dataTable({
            region: 'Exceptions',
            className: 'exceptions',
            caption: "Exceptions, in the files' order, then the transactions no line settles",
            columns: ['Kind', 'Order', 'Merchant', 'Transaction', 'Detail', 'File:line'],
            rowHeads: false,
            rows: exceptions.map((e) => [
              e.kind,
              e.merchantId
                ? html`<a
                    href="/orders/${encodeURIComponent(e.merchantId)}/${encodeURIComponent(e.orderId)}"
                    >${e.orderId}</a
                  >`
                : e.orderId,
              e.merchantId ?? '—',
              e.transactionId,
              e.detail,
              e.at ?? '',
            ]),
          })
        : ''
    }
    ${matchedTable(matched)}`;
}

function matchedTable(matched: readonly MatchedCurrency[]): Html {
  return dataTable({
    region: 'Matched totals',
    caption: 'Matched, per currency',
    columns: ['Currency', ...['Lines', 'Gross', 'Fee', 'Net'].map(money)],
    rows: matched.map((m) => [
      m.currency,
      m.lines,
      formatAmount(m.gross),
      formatAmount(m.fee),
      formatAmount(m.net),
    ]),
  });
}
