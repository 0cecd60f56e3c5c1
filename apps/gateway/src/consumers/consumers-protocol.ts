import type { BusConfig, EventStoreSelection, LogLevel } from '@gateway/config';
import type { GatewayWebhooksConfig } from '@gateway/webhooks';
import type { ConsumerSwitches } from '../config/consumers.config';

/** Messages between the main thread (ConsumersHost) and the consumers thread (consumers.worker.ts). */

/** What the consumers thread is started with: the part of GatewayConfig its consumers read. */
export interface ConsumersSettings {
  readonly dataDir: string;
  readonly merchantsFile: string;
  readonly logLevel: LogLevel;
  readonly eventStore: EventStoreSelection;
  /** With the embedded store: the BroadcastChannel its writer posts commits to. */
  readonly commitsChannel?: string;
  readonly bus: BusConfig;
  readonly webhooks: GatewayWebhooksConfig;
  readonly consumers: ConsumerSwitches;
  readonly projectionBatchSize: number;
  /** On KurrentDB: the relay lease's duration (GATEWAY_RELAY_LEASE). */
  readonly relayLeaseSeconds: number;
  /**
   * This process as a contender for the relay lease: one per process, so a consumers thread
   * restarted after a crash takes back at once the lease its predecessor held.
   */
  readonly relayHolder: string;
}

/** What /health/ready shows of the consumers: the relay's state and the projection's. */
export interface ConsumersStatus {
  readonly bus: string;
  /** While this node runs the relay on a cluster: whether it publishes (leader), the lease's term. */
  readonly relay?: { readonly role: string; readonly term: number };
  readonly projections: { readonly orderSummary: Record<string, unknown> };
}

export type ToConsumers =
  | { readonly type: 'status'; readonly id: number }
  | { readonly type: 'metrics'; readonly id: number }
  /** A redelivery recorded through the API: send it now. */
  | { readonly type: 'nudge' }
  /** The main thread reloaded the merchants file (SIGHUP): so does this thread. */
  | { readonly type: 'reload-merchants' }
  /** Stop the consumers, committing what they hold, then exit. */
  | { readonly type: 'stop' };

export type FromConsumers =
  | { readonly type: 'started' }
  /** A store could not be opened at start (DatabaseFileError's file and problem). */
  | { readonly type: 'refused'; readonly file?: string; readonly problem: string }
  | { readonly type: 'status'; readonly id: number; readonly status: ConsumersStatus }
  | { readonly type: 'metrics'; readonly id: number; readonly text: string }
  | { readonly type: 'stopped' };
