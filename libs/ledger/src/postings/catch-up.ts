import { postingsOf, type Entry } from '@gateway/accounting';
import {
  evolve,
  evolveAll,
  FoldedOrderCache,
  initialState,
  ORDER_STREAM_PREFIX,
  type OrderEvent,
  type OrderState,
} from '@gateway/domain';
import type { EventReader, StoredEvent } from '@gateway/event-store';
import type { PostingsStore } from './postings-store';

/** Events read and posted per transaction: large enough to amortise a commit, small in memory. */
const BATCH = 2000;
/**
 * Events folded into the orders kept between batches (the orders an event usually follows). A
 * folded order costs ~2.5 KB an event: 10,000 keeps the heap under 64 MB (149,396 events posted
 * with --max-old-space-size=64; 50,000 ran out of 128 MB), and an order the cache forgot is only
 * read again.
 */
const FOLDED_EVENTS = 10_000;

/** Told after each batch: events posted so far, and how far through the log (0 to 1). */
export type CatchUpProgress = (events: number, fraction: number) => void;

/**
 * Posts the events the store has not yet, a batch at a time, each batch committed with its
 * checkpoint. Memory stays flat: a batch of events and a bounded cache of folded orders; an order
 * the cache forgot is folded again from its stream.
 */
export async function catchUp(
  log: EventReader,
  store: PostingsStore,
  onProgress: CatchUpProgress = () => undefined,
): Promise<number> {
  const head = await log.headPosition();
  await sameLog(log, store, head);
  const postings = new PostingsOf(log);
  let posted = 0;
  for (;;) {
    const from = store.checkpoint();
    const events = await log.readAll({
      after: from,
      maxCount: BATCH,
      streamPrefix: ORDER_STREAM_PREFIX,
    });
    if (events.length === 0) return posted;
    const entries: Entry[] = [];
    for (const event of events) entries.push(...(await postings.of(event)));
    const upTo = events[events.length - 1].position;
    if (store.append(entries, from, upTo)) posted += events.length;
    onProgress(posted, head ? Number(upTo) / Number(head) : 1);
  }
}

/**
 * A ledger.db made from another log (another data directory's, a cluster's, a log started over
 * with positions of its own) is no use: it is started over when its origin, the first order
 * event's id, is not this log's, or its checkpoint lies past this log's head.
 */
async function sameLog(
  log: EventReader,
  store: PostingsStore,
  head: bigint | undefined,
): Promise<void> {
  const [first] = await log.readAll({ maxCount: 1, streamPrefix: ORDER_STREAM_PREFIX });
  const origin = first?.eventId ?? '';
  const checkpoint = store.checkpoint();
  const pastHead = checkpoint !== undefined && (head === undefined || checkpoint > head);
  if (store.origin() !== origin || pastHead) store.startOver(origin);
}

/**
 * The entries of each event of the log in order, folding every order as it goes (remembered in
 * a bounded cache): what the catch-up stores and `verify` compares the store with.
 */
export class PostingsOf {
  private readonly folded = new FoldedOrderCache(FOLDED_EVENTS);

  constructor(private readonly log: EventReader) {}

  async of(event: StoredEvent): Promise<Entry[]> {
    const before = await this.before(event);
    const orderEvent = event as unknown as OrderEvent & StoredEvent;
    const after = evolve(before, orderEvent);
    this.folded.remember(event.streamId, { state: after, revision: event.revision });
    return postingsOf(orderEvent, before, after);
  }

  /** The order as it stood before the event: remembered, else folded from its stream. */
  private async before(event: StoredEvent): Promise<OrderState> {
    if (event.revision === 0) return initialState();
    const known = this.folded.get(event.streamId);
    if (known?.revision === event.revision - 1) return known.state;
    const earlier = (await this.log.readStream(event.streamId)).filter(
      (e) => e.revision < event.revision,
    );
    return evolveAll(initialState(), earlier as unknown as OrderEvent[]);
  }
}
