import type { EventStore } from '@gateway/event-store';
import { hasWriterStats } from './gateway-metrics';

export interface Readiness {
  readonly ready: boolean;
  readonly body: {
    readonly status: 'UP' | 'DOWN';
    readonly checks: {
      readonly eventStore: string;
      /** Why the embedded store cannot write: the SQLite code (SQLITE_FULL, SQLITE_READONLY, …). */
      readonly eventStoreError?: string;
      readonly bus?: string;
      readonly server?: 'draining' | 'overloaded';
    };
  };
}

/** A remote store that has not answered in this long counts as unreachable. */
const PROBE_TIMEOUT_MS = 2_000;

/**
 * Ready while the event store can take appends, the gateway takes requests, and shutdown has not
 * begun. The embedded store reports its writer's state: once it has failed, is closing, or cannot
 * write (read-only file, full disk: `unwritable`, with the SQLite code, until a write probe
 * succeeds), nothing could be made durable. A remote store (KurrentDB) is probed with a read of its
 * head position, so a lost cluster takes the node out of rotation. The node is not ready either
 * while every new request would be shed (overloaded: GATEWAY_MAX_IN_FLIGHT requests in progress)
 * or once shutdown has begun (draining).
 *
 * `bus` is the relay's state (live, retrying, …): shown, but it does not decide readiness, since
 * the API keeps answering while the broker is away and the relay catches up afterwards.
 */
export async function readiness(
  store: EventStore,
  {
    bus,
    draining = false,
    overloaded = false,
  }: { bus?: string; draining?: boolean; overloaded?: boolean } = {},
): Promise<Readiness> {
  const writer = hasWriterStats(store) ? store.stats() : undefined;
  const eventStore = writer ? writer.state : await probe(store);
  const server: Readiness['body']['checks']['server'] = draining
    ? 'draining'
    : overloaded
      ? 'overloaded'
      : undefined;
  const ready = eventStore === 'open' && !server;
  const checks = {
    eventStore,
    ...(writer?.unwritable ? { eventStoreError: writer.unwritable } : {}),
    ...(bus === undefined ? {} : { bus }),
    ...(server ? { server } : {}),
  };
  return { ready, body: { status: ready ? 'UP' : 'DOWN', checks } };
}

async function probe(store: EventStore): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve('unreachable'), PROBE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([store.headPosition().then(() => 'open'), timeout]);
  } catch {
    return 'unreachable';
  } finally {
    clearTimeout(timer);
  }
}
