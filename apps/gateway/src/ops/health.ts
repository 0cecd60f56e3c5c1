import { hasWriterStats } from './gateway-metrics';

export interface Readiness {
  readonly ready: boolean;
  readonly body: {
    readonly status: 'UP' | 'DOWN';
    readonly checks: { readonly eventStore: string; readonly server?: 'draining' };
  };
}

/**
 * Ready while the event store's writer accepts appends: once it has failed or is closing, nothing
 * could be made durable, so traffic should go elsewhere. A store without writer statistics (in
 * memory) is ready as long as the process is. Once shutdown has begun (draining), it is not.
 */
export function readiness(store: object, draining = false): Readiness {
  const eventStore = hasWriterStats(store) ? store.stats().state : 'open';
  const ready = eventStore === 'open' && !draining;
  const checks = draining ? { eventStore, server: 'draining' as const } : { eventStore };
  return { ready, body: { status: ready ? 'UP' : 'DOWN', checks } };
}
