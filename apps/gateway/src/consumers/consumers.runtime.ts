import { openingDatabaseFile } from '@gateway/database-files';
import {
  createEventStore,
  EventStoreLease,
  SqliteCommitFollower,
  type EventStore,
  type FollowedStore,
} from '@gateway/event-store';
import type { GatewayLogger } from '@gateway/logging';
import { MerchantRegistry } from '@gateway/merchants';
import {
  handlerFailed,
  InProcessOrderEventBus,
  KafkaOrderEventPublisher,
  kafkaOrderEventConsumer,
  type OrderEventConsumer,
  type OrderEventPublisher,
} from '@gateway/order-events';
import { OrderSummaryProjector, SqliteOrderSummaryReadModel } from '@gateway/projections';
import { SqliteDeliveryStore, WebhookDispatcher, WebhookMetrics } from '@gateway/webhooks';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { observeProjection, observeUnknownOutcomes } from '../ops/gateway-metrics';
import { PublicOrderEvents } from '../order-events/public-order-events';
import { LeasedRelay } from '../relay/leased-relay';
import { OrderEventRelay } from '../relay/order-event.relay';
import {
  SqliteRelayCheckpointStore,
  type RelayCheckpointStore,
} from '../relay/relay-checkpoint.store';
import { observeRelay } from '../relay/relay.metrics';
import { SettlementIndex } from '../settlement/settlement-index';
import { SettlementIndexFollower } from '../settlement/settlement-index.follower';
import type { ConsumersSettings, ConsumersStatus } from './consumers-protocol';

/** One running part: stopped in the reverse order of starting. */
interface Part {
  stop(): Promise<unknown> | void;
}

/**
 * The consumers of committed order events this node runs (GATEWAY_CONSUMERS), built and run
 * together on the consumers thread (consumers.worker.ts): the order-summary projector into
 * read-model.db, the relay to the bus (in-process or Kafka) with its checkpoints in relay.db (on
 * KurrentDB, in the relay lease's events, docs/consumers.md), and the webhook dispatcher with its
 * delivery store, fed by the bus. They read the event store through their own view of it: the
 * embedded store's commits straight from its writer (SqliteCommitFollower), or their own
 * KurrentDB client. Their metrics go on a registry of their own, which the main thread's /metrics
 * adds to its own.
 */
export class ConsumersRuntime {
  readonly registry = new Registry();
  private readonly parts: Part[] = [];
  private projector: OrderSummaryProjector | undefined;
  private relay: Pick<OrderEventRelay, 'status'> | undefined;
  /** The KurrentDB client, on a cluster: the relay's lease is kept there. */
  private cluster: EventStore | undefined;
  private dispatcher: WebhookDispatcher | undefined;
  private merchants!: MerchantRegistry;

  private constructor(
    private readonly settings: ConsumersSettings,
    private readonly logger: GatewayLogger,
  ) {}

  /** Opens every store the consumers use, then starts them; throws what opening threw. */
  static async start(
    settings: ConsumersSettings,
    logger: GatewayLogger,
  ): Promise<ConsumersRuntime> {
    const runtime = new ConsumersRuntime(settings, logger);
    try {
      await runtime.open();
    } catch (error) {
      await runtime.stop();
      throw error;
    }
    return runtime;
  }

  async status(): Promise<ConsumersStatus> {
    const relay = this.relay?.status();
    return {
      bus: relay?.state ?? 'off',
      // On a cluster only: the embedded store's one node has no lease.
      ...(relay?.role ? { relay: { role: relay.role, term: relay.term ?? 0 } } : {}),
      projections: { orderSummary: await this.projectionHealth() },
    };
  }

  metrics(): Promise<string> {
    return this.registry.metrics();
  }

  nudge(): void {
    this.dispatcher?.nudge();
  }

  reloadMerchants(): void {
    try {
      this.merchants.reload(this.settings.merchantsFile);
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, 'merchants not reloaded');
    }
  }

  /** Stops the consumers (each commits what it holds) and closes their stores, newest first. */
  async stop(): Promise<void> {
    for (const part of this.parts.splice(0).reverse()) {
      try {
        await part.stop();
      } catch (error) {
        this.logger.warn({ err: (error as Error).message }, 'consumer did not stop cleanly');
      }
    }
  }

  private async open(): Promise<void> {
    const { consumers, dataDir } = this.settings;
    const store = await this.openStore();
    this.merchants = MerchantRegistry.load(this.settings.merchantsFile);
    if (consumers.projector) {
      await this.openProjector(store, join(dataDir, 'read-model.db'));
      await this.openSettlementIndex(store, join(dataDir, 'settlement-index.db'));
    }
    if (!consumers.relay && !consumers.dispatcher) return;
    const { publisher, consumer } = this.openBus();
    // The dispatcher consumes before the relay's first publish (the in-process bus drops nothing
    // it has a handler for).
    if (consumers.dispatcher) await this.openDispatcher(consumer);
    if (consumers.relay) await this.openRelay(store, publisher, join(dataDir, 'relay.db'));
  }

  private async openStore(): Promise<FollowedStore> {
    const { eventStore, commitsChannel, dataDir } = this.settings;
    let store: FollowedStore & { close(): Promise<void> };
    if (eventStore.kind === 'kurrentdb') store = this.cluster = await createEventStore(eventStore);
    else {
      if (!commitsChannel) throw new Error('the embedded store needs its commits channel');
      const filename = join(dataDir, 'events.db');
      store = await openingDatabaseFile(
        filename,
        () => new SqliteCommitFollower({ filename, channel: commitsChannel }),
      );
    }
    this.parts.push({ stop: () => store.close() });
    return store;
  }

  private async openProjector(store: FollowedStore, filename: string): Promise<void> {
    const readModel = await openingDatabaseFile(filename, () =>
      SqliteOrderSummaryReadModel.open(filename),
    );
    this.parts.push({ stop: () => readModel.close() });
    const log = this.logger.child({ component: 'projector' });
    const projector = new OrderSummaryProjector(store, readModel, {
      batchSize: this.settings.projectionBatchSize,
      onError: (error) => log.error({ err: error.message }, 'projection failed; retrying'),
    });
    observeProjection(this.registry, 'order_summary', () => projector.lag());
    observeUnknownOutcomes(this.registry, () => readModel.unknownByCurrency());
    projector.start();
    this.projector = projector;
    this.parts.push({ stop: () => projector.stop() });
  }

  /** The settlement index, a projection too (docs/settlement.md). */
  private async openSettlementIndex(store: FollowedStore, filename: string): Promise<void> {
    const index = await openingDatabaseFile(filename, () => new SettlementIndex(filename, store));
    this.parts.push({ stop: () => index.close() });
    const log = this.logger.child({ component: 'settlement-index' });
    const follower = new SettlementIndexFollower(store, index, (error) =>
      log.error({ err: error.message }, 'settlement index failed; following again'),
    );
    follower.start();
    this.parts.push({ stop: () => follower.stop() });
  }

  private openBus(): { publisher: OrderEventPublisher; consumer: OrderEventConsumer } {
    const { bus } = this.settings;
    if (bus.kind === 'kafka') {
      const publisher = new KafkaOrderEventPublisher({ ...bus, log: this.logger });
      const consumer = kafkaOrderEventConsumer(bus, this.logger);
      this.parts.push({ stop: () => Promise.all([publisher.close(), consumer.close()]) });
      return { publisher, consumer };
    }
    const embedded = new InProcessOrderEventBus({ onHandlerError: handlerFailed(this.logger) });
    this.parts.push({ stop: () => embedded.close() });
    return { publisher: embedded, consumer: embedded };
  }

  private async openDispatcher(consumer: OrderEventConsumer): Promise<void> {
    const { webhooks } = this.settings;
    const deliveries = await openingDatabaseFile(
      webhooks.deliveryDb,
      () => new SqliteDeliveryStore(webhooks.deliveryDb),
    );
    this.parts.push({ stop: () => deliveries.close() });
    const observer = new WebhookMetrics(this.registry, () => deliveries.pendingCount());
    const dispatcher = new WebhookDispatcher({
      config: webhooks.delivery,
      deliveries,
      merchants: this.merchants,
      consumer,
      observer,
    });
    await dispatcher.start();
    this.dispatcher = dispatcher;
    this.parts.push({ stop: () => dispatcher.close() });
  }

  /**
   * On a cluster (KurrentDB) the relay publishes only while this node holds the relay's lease,
   * which carries the checkpoint (LeasedRelay); on the embedded store (one node) it always
   * publishes, its checkpoint in relay.db.
   */
  private async openRelay(
    store: FollowedStore,
    publisher: OrderEventPublisher,
    filename: string,
  ): Promise<void> {
    const { bus, relayLeaseSeconds, relayHolder } = this.settings;
    // One checkpoint per destination: a new bus or topic starts from the first event.
    const name = bus.kind === 'kafka' ? `kafka:${bus.topic}` : 'embedded';
    const publicEvents = new PublicOrderEvents(store, this.merchants);
    const log = this.logger.child({ component: 'relay' });
    const relayFrom = (checkpoints: RelayCheckpointStore) =>
      new OrderEventRelay(
        store,
        (batch) => publicEvents.forBus(batch),
        publisher,
        checkpoints,
        log,
      );
    let relay: OrderEventRelay | LeasedRelay;
    if (this.cluster) {
      const durationMs = relayLeaseSeconds * 1000;
      const lease = new EventStoreLease(this.cluster, {
        name: `relay-lease:${name}`,
        holderId: relayHolder,
        durationMs,
      });
      relay = new LeasedRelay(lease, relayFrom, log, durationMs / 3);
    } else {
      const checkpoints = await openingDatabaseFile(
        filename,
        () => new SqliteRelayCheckpointStore(filename, name),
      );
      this.parts.push({ stop: () => checkpoints.close() });
      relay = relayFrom(checkpoints);
    }
    observeRelay(this.registry, relay, store);
    relay.start();
    this.relay = relay;
    this.parts.push({ stop: () => relay.stop() });
  }

  /** The projection's state and lag, as /health/ready shows it, or `off`. */
  private async projectionHealth(): Promise<Record<string, unknown>> {
    if (!this.projector) return { state: 'off' };
    const { state, error } = this.projector.status();
    const { checkpoint, head, seconds } = await this.projector.lag();
    return {
      state,
      ...(checkpoint !== undefined ? { checkpoint: checkpoint.toString() } : {}),
      ...(head !== undefined ? { head: head.toString() } : {}),
      lagSeconds: seconds,
      ...(error ? { error } : {}),
    };
  }
}
