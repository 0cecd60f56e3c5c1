import type { Consumer, EachBatchPayload, KafkaMessage } from 'kafkajs';
import { backoffDelay, DEFAULT_BACKOFF, sleep, type Backoff } from '../backoff';
import { OrderEventBusClosedError } from '../in-process-order-event.bus';
import type { OrderEventConsumer, OrderEventHandler } from '../order-event-bus.port';
import { orderEventKey, type PublicOrderEvent } from '../public-order-event';
import { createKafka, type KafkaConnectionOptions } from './kafka-client';
import { fromKafkaMessage, UnreadableOrderEventError } from './kafka-order-event.record';

export interface KafkaOrderEventConsumerOptions extends KafkaConnectionOptions {
  readonly groupId: string;
  /** Wait between retries of a rejected handler, and between attempts to (re)join the group. */
  readonly retry?: Backoff;
  /** Partitions handled at the same time (default 4); one partition is always handled in order. */
  readonly partitionsConsumedConcurrently?: number;
  /** How long the group waits for a silent member before rebalancing (kafkajs default 30000). */
  readonly sessionTimeoutMs?: number;
  /** Longest wait of a fetch for new records (kafkajs default 5000): closing waits for it. */
  readonly maxWaitTimeMs?: number;
  readonly onHandlerError?: (error: unknown, event: PublicOrderEvent) => void;
  /** A record that is not a public order event: reported, committed and passed over. */
  readonly onUnreadable?: (error: UnreadableOrderEventError, at: string) => void;
  /** The consumer could not (re)join the group; it tries again after back-off. */
  readonly onConnectionError?: (error: unknown) => void;
  /** The group is rebalancing: the partitions held may be taken away (owners stop work on them). */
  readonly onRebalancing?: () => void;
  /** This member joined the group (again) holding these partitions of the topic. */
  readonly onAssigned?: (partitions: readonly number[]) => void;
}

/**
 * Consumes the order events topic in a consumer group, from the earliest offset when the group
 * has none. Offsets are committed per fetched batch, after the handler resolved for each of its
 * records: a crash re-delivers at most the batch in hand (at-least-once). A rejected handler is retried with
 * back-off on its partition (which holds that order's later events, so they must wait), while
 * the other partitions go on; the retry gives up only when the partition is taken away in a
 * rebalance (its new owner starts from the last commit) or the consumer closes.
 * `start` does not wait for the group: joining can take a rebalance, up to the session timeout of
 * a member that died (a process restarted after kill -9), and must not hold up the process that
 * starts it (the gateway's start-up). Joining, and joining again after a failure, go on in the
 * background; records wait on the topic meanwhile.
 */
export class KafkaOrderEventConsumer implements OrderEventConsumer {
  private readonly consumer: Consumer;
  private readonly closing = new AbortController();
  /** Set by start(). */
  private handler: OrderEventHandler | undefined;

  constructor(private readonly options: KafkaOrderEventConsumerOptions) {
    this.consumer = createKafka(options).consumer({
      groupId: options.groupId,
      allowAutoTopicCreation: true,
      ...(options.sessionTimeoutMs ? { sessionTimeout: options.sessionTimeoutMs } : {}),
      ...(options.maxWaitTimeMs ? { maxWaitTimeInMs: options.maxWaitTimeMs } : {}),
      // kafkajs restarts the consumer itself after retriable failures (others: CRASH below).
      retry: { restartOnFailure: async () => true },
    });
    // kafkajs restarts itself only after retriable errors (restartOnFailure is not asked about
    // the others): after any other crash, e.g. a SyncGroup refused, the consumer rejoins here.
    this.consumer.on(this.consumer.events.CRASH, ({ payload }) => {
      if (payload.restart || this.closing.signal.aborted || !this.handler) return;
      this.options.onConnectionError?.(payload.error);
      void this.keepJoining();
    });
    const { onRebalancing, onAssigned } = options;
    if (onRebalancing) this.consumer.on(this.consumer.events.REBALANCING, () => onRebalancing());
    if (onAssigned)
      this.consumer.on(this.consumer.events.GROUP_JOIN, ({ payload }) =>
        onAssigned(payload.memberAssignment[options.topic] ?? []),
      );
  }

  async start(handle: OrderEventHandler): Promise<void> {
    if (this.closing.signal.aborted) throw new OrderEventBusClosedError();
    if (this.handler) throw new Error('KafkaOrderEventConsumer is already started');
    this.handler = handle;
    void this.join().catch(() => this.keepJoining());
  }

  async close(): Promise<void> {
    this.closing.abort();
    await this.consumer.disconnect();
  }

  private async keepJoining(): Promise<void> {
    for (let attempt = 2; !this.closing.signal.aborted; attempt++) {
      await sleep(backoffDelay(attempt, this.backoff), this.closing.signal);
      if (this.closing.signal.aborted) return;
      try {
        await this.join();
        return;
      } catch {
        // reported by join; try again
      }
    }
  }

  private async join(): Promise<void> {
    try {
      await this.consumer.connect();
      await this.consumer.subscribe({ topics: [this.options.topic], fromBeginning: true });
      await this.consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently ?? 4,
        eachBatch: (payload) => this.handleBatch(payload, this.handler!),
      });
    } catch (error) {
      // A join cut short by close() is no connection problem.
      if (!this.closing.signal.aborted) this.options.onConnectionError?.(error);
      await this.consumer.disconnect().catch(() => undefined);
      throw error;
    }
  }

  /**
   * One order's records are handled one after another, different orders' at the same time (so a
   * handler's durable writes can share a commit); the batch's offset is committed once all are
   * done. A crash re-delivers at most the batch in hand.
   */
  private async handleBatch(payload: EachBatchPayload, handle: OrderEventHandler) {
    const { batch, resolveOffset, heartbeat, isRunning, isStale } = payload;
    const owned = () => isRunning() && !isStale() && !this.closing.signal.aborted;
    const last = batch.messages[batch.messages.length - 1];
    if (!last || !owned()) return;
    const perOrder = new Map<string, PublicOrderEvent[]>();
    for (const message of batch.messages) {
      const event = this.read(message, `${batch.topic}/${batch.partition}@${message.offset}`);
      if (!event) continue;
      const key = orderEventKey(event);
      perOrder.set(key, [...(perOrder.get(key) ?? []), event]);
    }
    const handled = await Promise.all(
      [...perOrder.values()].map(async (events) => {
        for (const event of events)
          if (!(await this.handleUntilDone(event, batch.partition, handle, heartbeat, owned)))
            return false;
        return true;
      }),
    );
    if (!handled.every(Boolean) || !owned()) return;
    resolveOffset(last.offset);
    await this.consumer.commitOffsets([
      { topic: batch.topic, partition: batch.partition, offset: nextOffset(last) },
    ]);
    await heartbeat();
  }

  private read(message: KafkaMessage, at: string): PublicOrderEvent | undefined {
    try {
      return fromKafkaMessage(message);
    } catch (error) {
      if (!(error instanceof UnreadableOrderEventError)) throw error;
      this.options.onUnreadable?.(error, at);
      return undefined;
    }
  }

  /** False when the partition was lost (or the consumer closed) before the handler succeeded. */
  private async handleUntilDone(
    event: PublicOrderEvent,
    partition: number,
    handle: OrderEventHandler,
    heartbeat: () => Promise<void>,
    owned: () => boolean,
  ): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      try {
        await handle(event, { partition });
        return true;
      } catch (error) {
        this.options.onHandlerError?.(error, event);
        await sleep(backoffDelay(attempt, this.backoff), this.closing.signal);
        if (!owned()) return false;
        // Long retries must not cost the partition: the group would rebalance it away.
        await heartbeat().catch(() => undefined);
      }
    }
  }

  private get backoff(): Backoff {
    return this.options.retry ?? DEFAULT_BACKOFF;
  }
}

function nextOffset(message: KafkaMessage): string {
  return (BigInt(message.offset) + 1n).toString();
}
