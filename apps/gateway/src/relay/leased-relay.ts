import type { GlobalPosition, Lease } from '@gateway/event-store';
import type { OrderEventRelay, RelayLog, RelayStatus } from './order-event.relay';
import type { RelayCheckpointStore } from './relay-checkpoint.store';

/** A relay for one term, resuming from (and checkpointing into) what it is given. */
export type RelayOfTerm = (checkpoints: RelayCheckpointStore) => OrderEventRelay;

/**
 * The relay on a cluster (KurrentDB): every node runs this, only the lease's holder publishes.
 * Every third of the lease's duration it steps the lease (the holder renews, carrying the last
 * checkpoint the bus acknowledged; a standby looks for a free lease); on taking the lease it
 * starts a relay from the lease's checkpoint, and once the lease is lost (a renewal fenced by
 * another's take-over, or renewals failing for two thirds of the duration) it stops it. What the
 * old holder published past the checkpoint it last renewed with is published again by the new
 * one (at-least-once, de-duplicated by event id). A clean stop releases the lease with the final
 * checkpoint, so a standby takes over at its next step instead of after the whole duration.
 */
export class LeasedRelay {
  private relay: OrderEventRelay | undefined;
  /** The last position the bus acknowledged in this node's term (handed on with renewals). */
  private checkpoint: GlobalPosition | undefined;
  private earlier = { eventsPublished: 0, publishFailures: 0 };
  private timer: NodeJS.Timeout | undefined;
  /** Fires when the lease, unrenewed, stops counting this node the holder (not a tick later). */
  private deadline: NodeJS.Timeout | undefined;
  private stepping: Promise<void> | undefined;
  /** Starts and stops of the relay, one after another. */
  private following: Promise<void> = Promise.resolve();
  private stopping = false;
  private readonly checkpoints: RelayCheckpointStore = {
    load: () => this.checkpoint,
    save: (position) => {
      if (this.checkpoint === undefined || position > this.checkpoint) this.checkpoint = position;
    },
    close: () => undefined,
  };

  constructor(
    private readonly lease: Lease,
    private readonly relayOfTerm: RelayOfTerm,
    private readonly log: RelayLog,
    private readonly stepEveryMs: number,
  ) {}

  start(): void {
    this.tick();
    this.timer = setInterval(() => this.tick(), this.stepEveryMs);
  }

  status(): RelayStatus {
    const lease = this.lease.status();
    const current = this.relay?.status();
    const published = (current?.eventsPublished ?? 0) + this.earlier.eventsPublished;
    const failures = (current?.publishFailures ?? 0) + this.earlier.publishFailures;
    return {
      ...(current ?? { state: 'standby', checkpoint: lease.checkpoint }),
      eventsPublished: published,
      publishFailures: failures,
      role: this.relay ? 'leader' : 'standby',
      term: lease.term,
    };
  }

  /** Stops publishing (the publish in flight acknowledged), then releases the lease. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.follow();
    clearInterval(this.timer);
    clearTimeout(this.deadline);
    await this.stepping;
    try {
      await this.lease.release(this.checkpoint);
    } catch (error) {
      this.log.warn({ err: (error as Error).message }, 'relay lease not released; it will expire');
    }
  }

  private tick(): void {
    // Stopping: a holder keeps renewing until it has released; a standby takes nothing more.
    if (this.stopping && this.lease.status().role !== 'leader') return;
    // A step still on its way (a store that does not answer) is not doubled; the holder's
    // validity is checked all the same, so it stops publishing once its renewals are too old.
    this.stepping ??= this.lease
      .step(this.checkpoint)
      .then(
        () => undefined,
        (error: Error) => this.log.warn({ err: error.message }, 'relay lease step failed'),
      )
      .finally(() => {
        this.stepping = undefined;
        void this.follow();
      });
    void this.follow();
  }

  /** Starts the relay when this node holds the lease, stops it when it does not (or stopping). */
  private follow(): Promise<void> {
    this.following = this.following.then(async () => {
      const { role, term, checkpoint, leaderForMs } = this.lease.status();
      const leading = role === 'leader' && !this.stopping;
      // Ticks come a third of the lease apart: checking only at them could stop this node as
      // late as a standby's take-over. Its lease's own deadline is checked when it comes.
      clearTimeout(this.deadline);
      if (leading && leaderForMs !== undefined)
        this.deadline = setTimeout(() => void this.follow(), leaderForMs + 1);
      if (leading && !this.relay) {
        // From the further of the lease's checkpoint and this node's own (save keeps the further):
        // the bus acknowledged everything up to either; after a lapse without a take-over (slow
        // renewals) this node's own is the further one.
        if (checkpoint !== undefined) this.checkpoints.save(checkpoint);
        this.relay = this.relayOfTerm(this.checkpoints);
        this.relay.start();
        this.log.info({ term, from: checkpoint?.toString() }, 'relay lease taken: publishing');
      } else if (!leading && this.relay) {
        const relay = this.relay;
        this.relay = undefined;
        await relay.stop();
        const { eventsPublished, publishFailures } = relay.status();
        this.earlier.eventsPublished += eventsPublished;
        this.earlier.publishFailures += publishFailures;
        if (!this.stopping) this.log.warn({ term }, 'relay lease lost: stopped publishing');
      }
    });
    return this.following;
  }
}
