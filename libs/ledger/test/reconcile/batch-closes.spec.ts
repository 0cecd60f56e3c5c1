import { SETTLEMENT_BATCH_CLOSED, settlementStreamId } from '@gateway/acquirer';
import { InMemoryEventStore } from '@gateway/event-store';
import { BatchCloses } from '../../src/reconcile/batch-closes';

describe('BatchCloses: the log position each batch closed at', () => {
  it("reads a batch's close from its stream's first event, once; a batch not closed has none", async () => {
    const log = new InMemoryEventStore();
    await log.appendToStream(
      settlementStreamId('M', 20261126),
      [{ eventId: 'c', type: SETTLEMENT_BATCH_CLOSED, data: { asOf: '42' }, metadata: {} }],
      'no_stream',
    );
    const reads = jest.spyOn(log, 'readStream');
    const closes = new BatchCloses(log);
    expect(await closes.asOf('M', 20261126)).toBe(42);
    expect(await closes.asOf('M', 20261126)).toBe(42);
    expect(await closes.asOf('M', 20261127)).toBeUndefined();
    expect(await closes.asOf('OTHER', 20261126)).toBeUndefined();
    expect(await closes.asOf('M', null)).toBeUndefined();
    expect(reads).toHaveBeenCalledTimes(3);
  });
});
