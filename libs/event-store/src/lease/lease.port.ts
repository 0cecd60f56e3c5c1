import type { GlobalPosition } from '../event-store.port';

/**
 * A lease on one job across processes (the relay): at most one holder at a time, a term counted
 * up at each take-over, and a checkpoint the holder hands on. No clocks are compared between
 * processes: each measures only on its own monotonic clock how long the lease has gone unchanged.
 */
export interface Lease {
  /**
   * One step, called every third of the lease's duration: a holder renews (carrying `checkpoint`);
   * a standby looks for changes and takes the lease when it is free (never taken, released, or
   * unchanged for the lease's duration). Resolves to the status after; a store failure rejects,
   * leaving a holder the holder until its renewals have failed for two thirds of the duration.
   */
  step(checkpoint?: GlobalPosition): Promise<LeaseStatus>;
  /** Hands the lease on at once (a clean stop), with the last checkpoint; nothing if not held. */
  release(checkpoint?: GlobalPosition): Promise<void>;
  /** Without I/O: a holder whose last renewal is too old counts as standby here already. */
  status(): LeaseStatus;
}

export interface LeaseStatus {
  readonly role: 'leader' | 'standby';
  /** A leader: how much longer it counts itself the holder without another renewal, in ms. */
  readonly leaderForMs?: number;
  /** The last term seen: 1 for the first holder, one more at each take-over; 0 before any. */
  readonly term: number;
  /** Who held it at the last event seen (a holder id), if anyone. */
  readonly holder?: string;
  /** The checkpoint of the last event seen: where a new holder resumes. */
  readonly checkpoint?: GlobalPosition;
}
