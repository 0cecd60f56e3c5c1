import { orderStreamId } from '@gateway/domain';
import type { EventReader } from '@gateway/event-store';
import { oneOf, UsageError } from '../ledger-args';
import type { LedgerOutput } from '../ledger-context';
import { EVENT_ROW_COLUMNS, eventRow, table } from '../event-rows';

// The order is known from the command line; the rest of an event row, in the same order.
const HISTORY_COLUMNS = EVENT_ROW_COLUMNS.filter(
  (c) => !['position', 'merchant', 'order', 'result'].includes(c),
);

/** `history <merchant> <order>`: every event of the order, oldest first. Exit 1 if there are none. */
export async function history(
  log: EventReader,
  positional: readonly string[],
  format: string | undefined,
  io: LedgerOutput,
): Promise<number> {
  const [merchant, order] = positional;
  if (!merchant || !order || positional.length > 2)
    throw new UsageError('history needs <merchant> <order>');
  const how = oneOf(format, ['table', 'jsonl'] as const, '--format', 'table');
  const events = await log.readStream(orderStreamId(merchant, order));
  if (events.length === 0) {
    io.err.write(`no order '${order}' of merchant '${merchant}'\n`);
    return 1;
  }
  const rows = events.map(eventRow);
  const lines =
    how === 'jsonl'
      ? rows.map((row) =>
          JSON.stringify(Object.fromEntries(EVENT_ROW_COLUMNS.map((c) => [c, row[c]]))),
        )
      : table(
          HISTORY_COLUMNS,
          rows.map((row) => HISTORY_COLUMNS.map((c) => row[c])),
        );
  io.out.write(`${lines.join('\n')}\n`);
  return 0;
}
