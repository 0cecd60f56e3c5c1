import { hasWriterStats } from './gateway-metrics';

export interface Readiness {
  readonly ready: boolean;
  readonly body: {
    readonly status: 'UP' | 'DOWN';
    readonly checks: { readonly eventStore: string; readonly bus?: string };
  };
}

/**
 * `bus` is the relay's state (live, retrying, …): shown, but it does not decide readiness, since
 * the API keeps answering while the broker is away and the relay catches up afterwards.
 *
 * Ready while the event store's writer accepts appends: once it has failed or is closing, nothing
 * could be made durable, so traffic should go elsewhere. A store without writer statistics (in
 * memory) is ready as long as the process is.
 */
export function readiness(store: object, bus?: string): Readiness {
  const eventStore = hasWriterStats(store) ? store.stats().state : 'open';
  const ready = eventStore === 'open';
  const checks = bus === undefined ? { eventStore } : { eventStore, bus };
  return { ready, body: { status: ready ? 'UP' : 'DOWN', checks } };
}
