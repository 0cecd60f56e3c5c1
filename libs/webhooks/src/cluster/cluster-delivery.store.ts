import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventStore } from '@gateway/event-store';
import type {
  AttemptConsequence,
  DeliveryAttempt,
  DeliveryQueue,
  DueDelivery,
  NewDelivery,
} from '../delivery/delivery.types';
import { SqliteDeliveryStore } from '../delivery/sqlite-delivery.store';
import { partitionEvent, partitionStreamId } from './partition-events';
import { PartitionLostError, PartitionSchedule } from './partition-schedule';

export interface ClusterDeliveryStoreOptions {
  readonly store: EventStore;
  /** The order events topic: one schedule stream per partition of it. */
  readonly topic: string;
  /**
   * How long a new owner waits for the previous one to release a partition (its attempts in
   * flight logged) before taking it anyway: the previous owner died. Longer than an attempt.
   */
  readonly handoverMs: number;
  /** How often the owned schedules are read for redelivery requests and other owners' claims. */
  readonly pollMs: number;
  readonly onError?: (error: unknown, streamId: string) => void;
}

/** Longest wait for a released partition's attempts in flight to end, beyond the hand-over. */
const RELEASE_GRACE_MS = 1000;

/**
 * The delivery queue of one dispatcher among several in a Kafka consumer group: it schedules
 * only the partitions the group assigned it, each a PartitionSchedule whose stream in the event
 * store is the truth, folded into a local SQLite file (a cache in a temporary directory, rebuilt
 * on every start). Assignment and rebalancing come from the Kafka consumer (onAssigned,
 * onRebalancing): while the group rebalances no attempt starts; a partition taken away is
 * released once its attempts in flight are logged, a partition given is claimed once its
 * previous owner released it (or the hand-over time passed).
 */
export class ClusterDeliveryStore implements DeliveryQueue {
  private readonly owner = randomUUID();
  private readonly directory = mkdtempSync(join(tmpdir(), 'webhook-schedule-'));
  private readonly schedule = new SqliteDeliveryStore(join(this.directory, 'schedule.db'), {
    cache: true,
  });
  private readonly claims = new Map<number, Promise<PartitionSchedule>>();
  /** Every schedule from its claim until dropped (released or lost), with its partition. */
  private readonly held = new Map<PartitionSchedule, number>();
  private readonly poller: NodeJS.Timeout;
  /** A pass still on its way (an event store slow to answer) is not doubled. */
  private polling: Promise<void> | undefined;
  private rebalancing = false;

  constructor(private readonly options: ClusterDeliveryStoreOptions) {
    this.poller = setInterval(() => {
      this.polling ??= this.poll().finally(() => (this.polling = undefined));
    }, options.pollMs);
    this.poller.unref();
  }

  /** The group is rebalancing: start nothing until the assignment is known. */
  onRebalancing(): void {
    this.rebalancing = true;
  }

  /** This dispatcher now holds these partitions: release the others, claim the new ones. */
  onAssigned(partitions: readonly number[]): void {
    this.rebalancing = false;
    for (const partition of [...this.claims.keys()])
      if (!partitions.includes(partition)) void this.release(partition);
    for (const partition of partitions) if (!this.claims.has(partition)) this.claim(partition);
  }

  async record(delivery: NewDelivery, now: number, partition = 0): Promise<boolean> {
    const schedule = await this.ready(partition);
    if (schedule.ids.has(delivery.id)) return false;
    await schedule.write([partitionEvent('DeliveryRecorded', { delivery, now })]);
    return true;
  }

  merchantsDue(now: number): string[] {
    return this.rebalancing ? [] : this.schedule.merchantsDue(now);
  }

  due(merchantId: string, now: number, limit: number, excluding?: Iterable<string>) {
    return this.schedule
      .due(merchantId, now, limit, excluding)
      .filter((delivery) => this.holderOf(delivery.id)?.active);
  }

  nextDueAt(): number | undefined {
    return this.schedule.nextDueAt();
  }

  /** The partitions whose deliveries this dispatcher sends now (health, tests). */
  partitions(): number[] {
    return [...this.held]
      .filter(([schedule]) => schedule.active)
      .map(([, partition]) => partition)
      .sort((a, b) => a - b);
  }

  pendingCount(): number {
    return this.schedule.pendingCount();
  }

  attemptStarted(delivery: DueDelivery): void {
    const holder = this.holderOf(delivery.id);
    if (holder) holder.inFlight++;
  }

  attemptEnded(delivery: DueDelivery): void {
    const holder = this.holderOf(delivery.id);
    if (holder) holder.inFlight--;
  }

  async completeAttempt(
    delivery: DueDelivery,
    attempt: DeliveryAttempt,
    consequence: AttemptConsequence,
    now: number,
  ): Promise<void> {
    const holder = this.holderOf(delivery.id);
    if (!holder) throw new PartitionLostError(`the partition of delivery ${delivery.id}`);
    const { id, streamId } = delivery;
    await holder.write([
      partitionEvent('AttemptCompleted', { delivery: { id, streamId }, attempt, consequence, now }),
    ]);
  }

  /** Releases every partition (attempts in flight should have ended), then drops the cache. */
  async close(): Promise<void> {
    clearInterval(this.poller);
    await Promise.all([...this.claims.keys()].map((partition) => this.release(partition)));
    await this.schedule.close();
    rmSync(this.directory, { recursive: true, force: true });
  }

  private claim(partition: number): void {
    const schedule = new PartitionSchedule(
      this.options.store,
      partitionStreamId(this.options.topic, partition),
      this.schedule,
      this.owner,
    );
    this.held.set(schedule, partition);
    const claimed = schedule.claim(this.options.handoverMs).then(() => schedule);
    this.claims.set(partition, claimed);
    // The event store failed us: try again while the partition is still ours.
    claimed.catch(async (error: unknown) => {
      this.options.onError?.(error, schedule.streamId);
      await this.drop(schedule);
      await new Promise((done) => setTimeout(done, this.options.pollMs));
      if (this.claims.get(partition) === claimed) this.claim(partition);
    });
  }

  /** The partition's schedule once claimed (a failed claim is tried again: the caller retries). */
  private async ready(partition: number): Promise<PartitionSchedule> {
    const claimed = this.claims.get(partition);
    if (!claimed) throw new PartitionLostError(partitionStreamId(this.options.topic, partition));
    return claimed;
  }

  private async release(partition: number): Promise<void> {
    const claimed = this.claims.get(partition);
    this.claims.delete(partition);
    const schedule = await claimed?.catch(() => undefined);
    if (!schedule) return;
    schedule.releasing = true;
    const deadline = Date.now() + this.options.handoverMs + RELEASE_GRACE_MS;
    while (schedule.inFlight > 0 && Date.now() < deadline)
      await new Promise((done) => setTimeout(done, 20));
    await schedule.release();
    await this.drop(schedule);
  }

  /** Forgets a schedule and its deliveries (lost, released, or never claimed). */
  private async drop(schedule: PartitionSchedule): Promise<void> {
    if (!this.held.delete(schedule)) return;
    await this.schedule.forget([...schedule.ids]).catch(() => undefined);
  }

  private holderOf(id: string): PartitionSchedule | undefined {
    for (const schedule of this.held.keys()) if (schedule.ids.has(id)) return schedule;
    return undefined;
  }

  private async poll(): Promise<void> {
    for (const [partition, claimed] of this.claims) {
      const schedule = await claimed.catch(() => undefined);
      if (!schedule) continue;
      try {
        await schedule.poll();
      } catch (error) {
        this.options.onError?.(error, schedule.streamId);
      }
      // Taken by another dispatcher: the group will tell us (its assignment), forget it now.
      if (schedule.lost && this.claims.get(partition) === claimed) {
        this.claims.delete(partition);
        await this.drop(schedule);
      }
    }
  }
}
