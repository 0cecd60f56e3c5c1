import type { EventReader } from '@gateway/event-store';
import { csvLine, orderEventPages } from '@gateway/ledger';
import { oneOf, parseTime } from '../ledger-args';
import { writeLine, type LedgerOutput } from '../ledger-context';
import { EVENT_ROW_COLUMNS, eventRow } from '../event-rows';
import { ProgressBar } from '../progress-bar';

export interface ExportOptions {
  readonly merchant?: string;
  readonly from?: string;
  readonly to?: string;
  readonly format?: string;
}

/**
 * `export [--merchant M] [--from T1] [--to T2] [--format csv|jsonl]`: every transaction event
 * (all but OrderCreated) recorded in [T1, T2), in log order. Reads the log a batch at a time and
 * waits for the output to drain, so memory stays flat however many events there are.
 */
export async function exportTransactions(
  log: EventReader,
  options: ExportOptions,
  io: LedgerOutput,
): Promise<number> {
  const format = oneOf(options.format, ['csv', 'jsonl'] as const, '--format', 'csv');
  const from = options.from === undefined ? undefined : parseTime(options.from, '--from');
  const to = options.to === undefined ? undefined : parseTime(options.to, '--to');
  const head = Number((await log.headPosition()) ?? 0n);
  const progress = new ProgressBar('export', 'rows');
  if (format === 'csv') await writeLine(io.out, csvLine(EVENT_ROW_COLUMNS));
  let rows = 0;
  for await (const events of orderEventPages(log, options.merchant)) {
    for (const event of events) {
      if (event.type === 'OrderCreated') continue;
      if ((from && event.recordedAt < from) || (to && event.recordedAt >= to)) continue;
      const row = eventRow(event);
      const line =
        format === 'csv'
          ? csvLine(EVENT_ROW_COLUMNS.map((c) => row[c]))
          : JSON.stringify(Object.fromEntries(EVENT_ROW_COLUMNS.map((c) => [c, row[c]])));
      await writeLine(io.out, line);
      rows += 1;
    }
    progress.update(head ? Number(events[events.length - 1].position) / head : 1, rows);
  }
  progress.done();
  io.err.write(`exported ${rows} rows\n`);
  return 0;
}
