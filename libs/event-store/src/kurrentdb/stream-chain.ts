import type { ChainLink, EventMetadata, StoredEvent } from '../event-store.port';
import { GENESIS_HASH, streamEventHash } from '../hash-chain';
import type { SerializedEvent } from '../new-events';

/**
 * The metadata key under which each event carries its ChainLink on the server. The adapter adds
 * it on append and takes it out on read, so callers see their metadata as they wrote it.
 */
export const CHAIN_KEY = 'hashChain';

/** The last event of a stream as the chain needs it: its revision (-1: no stream) and hash. */
export interface StreamTail {
  readonly revision: number;
  readonly hash: string;
}

export const NO_STREAM_TAIL: StreamTail = { revision: -1, hash: GENESIS_HASH };

export interface ChainedEvent extends SerializedEvent {
  readonly chain: ChainLink;
}

/**
 * Chains an append's events after `tail`. The hashes cover the JSON text the caller's values
 * serialised to, which a JSON read gives back unchanged (JSON.stringify of JSON.parse of
 * JSON.stringify output is that output), so the verifier recomputes them from a read.
 */
export function chainAppend(
  streamId: string,
  events: readonly SerializedEvent[],
  tail: StreamTail,
): ChainedEvent[] {
  let previousHash = tail.hash;
  return events.map((event, i) => {
    const revision = tail.revision + 1 + i;
    const hash = streamEventHash(previousHash, { ...event, streamId, revision });
    const chained = { ...event, chain: { previousHash, hash } };
    previousHash = hash;
    return chained;
  });
}

/** The caller's metadata with the chain link added, as the server stores it. */
export function withChain(event: ChainedEvent): EventMetadata {
  return { ...(JSON.parse(event.metadata) as EventMetadata), [CHAIN_KEY]: event.chain };
}

/** Refuses caller metadata that would collide with the chain link. */
export function assertNoChainKey(events: readonly SerializedEvent[]): void {
  events.forEach((event, index) => {
    if (Object.hasOwn(JSON.parse(event.metadata) as object, CHAIN_KEY))
      throw new TypeError(`events[${index}].metadata.${CHAIN_KEY} is reserved for the hash chain`);
  });
}

/** Metadata as read from the server, split into the caller's part and the chain link. */
export function splitChain(stored: EventMetadata): Pick<StoredEvent, 'metadata' | 'chain'> {
  if (!Object.hasOwn(stored, CHAIN_KEY)) return { metadata: stored };
  const { [CHAIN_KEY]: link, ...metadata } = stored;
  return isChainLink(link)
    ? { metadata, chain: { previousHash: link.previousHash, hash: link.hash } }
    : { metadata };
}

/** What the next event of the stream chains to; an event without a link restarts the chain. */
export function tailOf(event: StoredEvent | undefined): StreamTail {
  if (!event) return NO_STREAM_TAIL;
  return { revision: event.revision, hash: event.chain?.hash ?? GENESIS_HASH };
}

function isChainLink(value: unknown): value is ChainLink {
  const link = value as Partial<ChainLink> | null;
  return typeof link?.previousHash === 'string' && typeof link.hash === 'string';
}

/**
 * The tails of recently used streams, at most `max` (oldest forgotten first), so an append after
 * a read or an append of the same stream needs no extra round trip. An entry serves only an
 * append expecting exactly its revision, which the server checks: revision n of a stream is one
 * event forever, so a stale entry can only miss, never chain to the wrong hash.
 */
export class StreamTailCache {
  private readonly tails = new Map<string, StreamTail>();

  constructor(private readonly max = 10_000) {}

  /** The latest revision known of the stream, -1 if none: a lower bound for its head. */
  revisionOf(streamId: string): number {
    return this.tails.get(streamId)?.revision ?? -1;
  }

  at(streamId: string, revision: number): StreamTail | undefined {
    const tail = this.tails.get(streamId);
    return tail?.revision === revision ? tail : undefined;
  }

  remember(streamId: string, tail: StreamTail): void {
    const known = this.tails.get(streamId);
    if (tail.revision < 0 || (known && known.revision >= tail.revision)) return;
    this.tails.delete(streamId);
    this.tails.set(streamId, tail);
    if (this.tails.size > this.max) this.tails.delete(this.tails.keys().next().value!);
  }
}
