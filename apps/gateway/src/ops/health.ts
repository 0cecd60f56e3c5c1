import type { EventStore } from '@gateway/event-store';
import { hasWriterStats } from './gateway-metrics';

export interface Readiness {
  readonly ready: boolean;
  readonly body: {
    readonly status: 'UP' | 'DOWN';
    readonly checks: {
      readonly eventStore: string;
      readonly bus?: string;
      readonly server?: 'draining';
    };
  };
}

/** A remote store that has not answered in this long counts as unreachable. */
const PROBE_TIMEOUT_MS = 2_000;

/**
 * Ready while the event store can take appends and shutdown has not begun. The embedded store
 * reports its writer's state: once it has failed or is closing, nothing could be made durable. A
 * remote store (KurrentDB) is probed with a read of its head position, so a lost cluster takes the
 * node out of rotation. Once shutdown has begun (draining), the node is not ready either.
 *
 * `bus` is the relay's state (live, retrying, …): shown, but it does not decide readiness, since
 * the API keeps answering while the broker is away and the relay catches up afterwards.
 */
export async function readiness(
  store: EventStore,
  { bus, draining = false }: { bus?: string; draining?: boolean } = {},
): Promise<Readiness> {
  const eventStore = hasWriterStats(store) ? store.stats().state : await probe(store);
  const ready = eventStore === 'open' && !draining;
  const checks = {
    eventStore,
    ...(bus === undefined ? {} : { bus }),
    ...(draining ? { server: 'draining' as const } : {}),
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
