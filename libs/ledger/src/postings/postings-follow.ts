import type { Entry } from '@gateway/accounting';
import { ORDER_STREAM_PREFIX } from '@gateway/domain';
import type { EventReader, StoredEvent } from '@gateway/event-store';
import { PostingsOf, type CatchUpProgress } from './catch-up';
import type { PostingsStore } from './postings-store';

const BATCH = 2000;

/** Where the store and the rules run again first disagree. */
export interface PostingsDifference {
  readonly entryId: string;
  readonly expected?: Entry;
  readonly found?: Entry;
}

export interface PostingsCheck {
  readonly events: number;
  readonly entries: number;
  readonly difference?: PostingsDifference;
}

/**
 * Runs the posting rules again over the log up to the store's checkpoint, a batch at a time, and
 * compares each entry with the stored one: an entry changed, missing or added in ledger.db (or
 * built by other rules) is found, and the first one named.
 */
export async function checkPostingsFollow(
  log: EventReader,
  store: PostingsStore,
  onProgress: CatchUpProgress = () => undefined,
): Promise<PostingsCheck> {
  const checkpoint = store.checkpoint();
  if (checkpoint === undefined) return { events: 0, entries: 0 };
  const postings = new PostingsOf(log);
  let after: bigint | undefined;
  let events = 0;
  let entries = 0;
  for (;;) {
    const batch: StoredEvent[] = (
      await log.readAll({ after, maxCount: BATCH, streamPrefix: ORDER_STREAM_PREFIX })
    ).filter((event) => event.position <= checkpoint);
    const expected: Entry[] = [];
    for (const event of batch) expected.push(...(await postings.of(event)));
    // The last range runs to the checkpoint, so an entry added past the last event is found too.
    const upTo: bigint = batch.length === BATCH ? batch[batch.length - 1].position : checkpoint;
    const difference = firstDifference(expected, store.entriesBetween(after, upTo));
    events += batch.length;
    entries += expected.length;
    if (difference) return { events, entries, difference };
    onProgress(events, Number(upTo) / Number(checkpoint));
    if (upTo === checkpoint) return { events, entries };
    after = upTo;
  }
}

function firstDifference(
  expected: readonly Entry[],
  found: readonly Entry[],
): PostingsDifference | undefined {
  for (let i = 0; i < Math.max(expected.length, found.length); i++) {
    const [e, f] = [expected[i], found[i]];
    if (JSON.stringify(e) !== JSON.stringify(f))
      return {
        entryId: (e ?? f).entryId,
        ...(e ? { expected: e } : {}),
        ...(f ? { found: f } : {}),
      };
  }
  return undefined;
}
