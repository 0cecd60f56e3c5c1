import { factTimeOf } from '@gateway/accounting';
import { foldOrder, type Order, type OrderEvent } from '@gateway/domain';
import type { EventMetadata, StoredEvent } from '@gateway/event-store';

/** Who made an event happen, from its metadata's causedBy. */
export type Cause = 'merchant' | 'payer' | 'acquirer' | 'gateway';

export interface TimelineEntry {
  readonly revision: number;
  readonly type: string;
  /** The gateway's time of the fact (factTimeOf), not the store's commit time. */
  readonly time: string;
  readonly cause: Cause;
  /** The merchant's apiOperation or the acquirer's fact, when the metadata names one. */
  readonly action?: string;
  /** The transactions the event is about. */
  readonly transactions: readonly string[];
}

/**
 * causedBy as the gateway writes it: `merchant.<id>` for an API request, `payer` for a step on
 * the gateway's pages, `acquirer` for a fact the acquirer told (the janitor's inquiries and
 * reversals, disputes, chargebacks, settlement). Anything else, or none, is the gateway's own.
 */
export function causeOf(metadata: EventMetadata): Cause {
  const by = metadata.causedBy;
  if (typeof by !== 'string') return 'gateway';
  if (by.startsWith('merchant.')) return 'merchant';
  return by === 'payer' || by === 'acquirer' ? by : 'gateway';
}

/** Every event of the order, in stream order, with its time and cause. */
export function timelineOf(events: readonly StoredEvent[]): TimelineEntry[] {
  return events.map((stored) => {
    const event = stored as unknown as OrderEvent;
    const action = stored.metadata.apiOperation ?? stored.metadata.acquirerFact;
    return {
      revision: stored.revision,
      type: stored.type,
      time: factTimeOf(event),
      cause: causeOf(stored.metadata),
      ...(typeof action === 'string' ? { action } : {}),
      transactions: transactionsOf(event),
    };
  });
}

function transactionsOf(event: OrderEvent): string[] {
  const data = event.data as {
    readonly id?: string;
    readonly transactionId?: string;
    readonly targetTransactionId?: string;
  };
  if (event.type === 'TransactionsSettled')
    return event.data.transactions.map((t) => t.transactionId);
  const id = data.id ?? data.transactionId ?? data.targetTransactionId;
  return id === undefined ? [] : [id];
}

/**
 * The order folded from its first event up to `revision` (the latest when undefined), as
 * Retrieve Order would have shown it then; undefined when no order stands there.
 */
export function orderAsOf(events: readonly StoredEvent[], revision?: number): Order | undefined {
  const upTo = revision === undefined ? events : events.filter((e) => e.revision <= revision);
  const state = foldOrder(upTo as unknown as OrderEvent[]);
  return state.kind === 'Order' ? state : undefined;
}
