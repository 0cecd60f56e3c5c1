import { factTimeOf } from '@gateway/accounting';
import { parseOrderStreamId, type OrderEvent, type Thousandths } from '@gateway/domain';
import type { EventReader } from '@gateway/event-store';
import { orderEventPages } from '../order-event-pages';
import type { CatchUpProgress } from '../postings/catch-up';
import { addedBy, FIGURES, type DailyFigures } from './daily-totals';

/**
 * Which days, both included, written yyyy-mm-dd (UTC; the caller checks them: they are compared
 * as text), and whose: one merchant's, else every one's.
 */
export interface DailyQuery {
  readonly from: string;
  readonly to: string;
  readonly merchant?: string;
}

/** One row of the daily report: a day, merchant and currency, amounts in thousandths. */
export interface DailyRow extends Readonly<DailyFigures> {
  readonly day: string;
  readonly merchant: string;
  readonly currency: string;
  /** Settled less fees: what the merchant was paid. */
  readonly net: Thousandths;
}

/**
 * Per UTC day from `from` to `to`, merchant and currency, what was authorised, captured,
 * refunded, charged back and settled, and the fees, by the gateway's time of each fact
 * (factTimeOf), in day, merchant, currency order. Reads the log a page at a time and keeps only
 * the rows (a day, merchant and currency each), so memory stays flat however long the log is.
 */
export async function dailyTotals(
  log: EventReader,
  query: DailyQuery,
  onProgress: CatchUpProgress = () => undefined,
): Promise<DailyRow[]> {
  const { from, to } = query;
  const head = Number((await log.headPosition()) ?? 0n);
  const rows = new Map<string, DailyFigures>();
  let read = 0;
  for await (const events of orderEventPages(log, query.merchant)) {
    read += events.length;
    for (const event of events) {
      const day = factTimeOf(event as unknown as OrderEvent).slice(0, 10);
      if (day < from || day > to) continue;
      const added = await addedBy(log, event);
      if (!added) continue;
      const key = [day, parseOrderStreamId(event.streamId)?.merchantId, added.currency].join('\t');
      const row = rows.get(key) ?? {
        authorised: 0,
        captured: 0,
        refunded: 0,
        chargedBack: 0,
        settled: 0,
        fees: 0,
      };
      for (const figure of FIGURES) row[figure] += added.figures[figure] ?? 0;
      rows.set(key, row);
    }
    onProgress(read, head ? Number(events[events.length - 1].position) / head : 1);
  }
  return [...rows]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, figures]) => {
      const [day, merchant, currency] = key.split('\t');
      return { day, merchant, currency, ...figures, net: figures.settled - figures.fees };
    });
}
