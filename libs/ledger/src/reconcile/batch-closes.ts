import {
  SETTLEMENT_BATCH_CLOSED,
  settlementStreamId,
  type SettlementClosedAt,
} from '@gateway/acquirer';
import type { EventReader } from '@gateway/event-store';

/**
 * When each settlement batch closed, as the log's position its lines were worked out at (the
 * batch stream's first event, docs/settlement.md): what decides whether a transaction was in its
 * batch. Neither clock can: the gateway's dates a request answered across the cut-off before the
 * close, yet it may commit after the close read the head. Read once per batch asked about.
 */
export class BatchCloses {
  private readonly known = new Map<string, number | undefined>();

  constructor(private readonly log: Pick<EventReader, 'readStream'>) {}

  async asOf(merchantId: string, batch: number | null): Promise<number | undefined> {
    if (batch === null) return undefined;
    const streamId = settlementStreamId(merchantId, batch);
    if (!this.known.has(streamId)) {
      const [first] = await this.log.readStream(streamId);
      const closed = first?.type === SETTLEMENT_BATCH_CLOSED;
      this.known.set(
        streamId,
        closed ? Number((first.data as SettlementClosedAt).asOf) : undefined,
      );
    }
    return this.known.get(streamId);
  }
}
