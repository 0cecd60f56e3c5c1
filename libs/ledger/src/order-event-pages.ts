import { merchantStreamPrefix, ORDER_STREAM_PREFIX } from '@gateway/domain';
import type { EventReader, StoredEvent } from '@gateway/event-store';

/** Events read at a time: large enough to amortise a read, small in memory. */
const PAGE = 2000;

/**
 * The log's order events (only `merchant`'s when given) in commit order, a page at a time: how
 * the commands that go through the whole log read it, so memory stays flat however long it is.
 */
export async function* orderEventPages(
  log: Pick<EventReader, 'readAll'>,
  merchant?: string,
): AsyncGenerator<StoredEvent[]> {
  const streamPrefix =
    merchant === undefined ? ORDER_STREAM_PREFIX : merchantStreamPrefix(merchant);
  for (let after: bigint | undefined; ;) {
    const events = await log.readAll({ after, maxCount: PAGE, streamPrefix });
    if (events.length === 0) return;
    yield events;
    after = events[events.length - 1].position;
  }
}
