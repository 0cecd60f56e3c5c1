import { ProblemList, type ChainProblem, type ChainReport } from '../chain-report';
import { SECRET_STREAM_PREFIX, type EventReader, type StoredEvent } from '../event-store.port';
import { streamEventHash } from '../hash-chain';
import { NO_STREAM_TAIL, tailOf, type StreamTail } from './stream-chain';

export interface StreamChainOptions {
  readonly maxProblems?: number;
  /** Events per read of the log (default 2,000). */
  readonly batch?: number;
  /** After each read: events checked so far, and the share of the log they reach. */
  readonly onProgress?: (checked: number, fraction: number) => void;
}

const DEFAULT_BATCH = 2000;

/**
 * Checks per-stream hash chains (each event's ChainLink) through the port's log read, in one pass
 * in commit order: every event's hash against its content, its revision against the stream's
 * previous one, and its link against that event's hash. Memory holds one tail per stream, not
 * the events. Nothing chains to a stream's last event, so removing it, or a whole stream, does
 * not show here: the chain links each stream only (see README, "Tamper evidence"). Secret streams
 * are no part of the ledger (SECRET_STREAM_PREFIX).
 */
export async function verifyStreamChains(
  reader: EventReader,
  options: StreamChainOptions = {},
): Promise<ChainReport> {
  const found = new ProblemList(options.maxProblems);
  const tails = new Map<string, StreamTail>();
  const head = Number((await reader.headPosition()) ?? 0n);
  let events = 0;
  let after: bigint | undefined;
  for (;;) {
    const page = await reader.readAll({ after, maxCount: options.batch ?? DEFAULT_BATCH });
    if (page.length === 0) break;
    for (const event of page) {
      if (event.streamId.startsWith(SECRET_STREAM_PREFIX)) continue;
      const tail = tails.get(event.streamId);
      const problem = checkLink(event, tail);
      if (problem) found.add(problem);
      // A revision behind the tail was reported; the tail stays the stream's furthest event.
      if (!tail || event.revision > tail.revision) tails.set(event.streamId, tailOf(event));
    }
    events += page.length;
    after = page[page.length - 1].position;
    options.onProgress?.(events, head ? Number(after) / head : 1);
  }
  const { problems, moreProblems } = found;
  return { events, streams: tails.size, problems, moreProblems };
}

/** The first thing wrong with `event` after its stream's furthest event so far, if any. */
function checkLink(event: StoredEvent, tail: StreamTail | undefined): ChainProblem | undefined {
  const at = { position: event.position, streamId: event.streamId, revision: event.revision };
  const previous = tail ?? NO_STREAM_TAIL;
  const expected = previous.revision + 1;
  if (!event.chain) {
    const detail = 'carries no hash chain: its link was removed, or it was written without one';
    return { kind: 'altered', ...at, detail };
  }
  if (event.chain.hash !== contentHash(event, event.chain.previousHash))
    return { kind: 'altered', ...at, detail: 'content does not match its hash' };
  if (event.revision > expected) {
    const missing =
      event.revision - 1 > expected ? `s ${expected}-${event.revision - 1}` : ` ${expected}`;
    return {
      kind: 'revision-gap',
      ...at,
      detail: `revision${missing} of the stream missing here: removed or moved`,
    };
  }
  if (event.revision < expected) {
    const detail = `comes after revision ${previous.revision} in the log: events reordered`;
    return { kind: 'reordered', ...at, detail };
  }
  if (event.chain.previousHash !== previous.hash)
    return {
      kind: 'stream-link',
      ...at,
      detail: 'not chained to the previous event of its stream: events replaced or reordered',
    };
  return undefined;
}

function contentHash(event: StoredEvent, previousHash: string): string {
  return streamEventHash(previousHash, {
    streamId: event.streamId,
    revision: event.revision,
    eventId: event.eventId,
    type: event.type,
    data: JSON.stringify(event.data) ?? 'null',
    metadata: JSON.stringify(event.metadata),
  });
}
