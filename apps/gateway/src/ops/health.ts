import { hasWriterStats } from './gateway-metrics';

export interface Readiness {
  readonly ready: boolean;
  readonly body: {
    readonly status: 'UP' | 'DOWN';
    readonly checks: { readonly eventStore: string };
  };
}

/**
 * Ready while the event store's writer accepts appends: once it has failed or is closing, nothing
 * could be made durable, so traffic should go elsewhere. A store without writer statistics (in
 * memory) is ready as long as the process is.
 */
export function readiness(store: object): Readiness {
  const eventStore = hasWriterStats(store) ? store.stats().state : 'open';
  const ready = eventStore === 'open';
  return { ready, body: { status: ready ? 'UP' : 'DOWN', checks: { eventStore } } };
}
