import {
  batchOfDate,
  closingTime,
  dateOfBatch,
  latestClosedBatch,
} from '../../src/settlement/settlement-batch';

describe('batch days', () => {
  it('reads a day written yyyy-mm-dd, and nothing else', () => {
    expect(batchOfDate('2026-11-26')).toBe(20261126);
    expect(dateOfBatch(20261126)).toBe('2026-11-26');
    for (const bad of [
      '2026-02-30',
      '2026-13-01',
      '26-11-26',
      '2026-11-26T00:00',
      ' 2026-11-26',
      '',
    ])
      expect(batchOfDate(bad)).toBeUndefined();
  });

  it('closes a day at the cut-off after the midnight that ends it', () => {
    expect(closingTime('2026-11-26', 0).toISOString()).toBe('2026-11-27T00:00:00.000Z');
    expect(closingTime('2026-12-31', 90 * 60_000).toISOString()).toBe('2027-01-01T01:30:00.000Z');
  });

  it('knows the latest batch whose cut-off has passed', () => {
    const cutoff = 30 * 60_000; // 00:30
    expect(latestClosedBatch(new Date('2026-11-27T00:29:59.999Z'), cutoff)).toBe(20261125);
    expect(latestClosedBatch(new Date('2026-11-27T00:30:00.000Z'), cutoff)).toBe(20261126);
    expect(latestClosedBatch(new Date('2026-11-27T23:59:59.000Z'), 0)).toBe(20261126);
  });
});
