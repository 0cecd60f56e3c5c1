import { KnownStreams } from '../../src/order/known-streams';

describe('KnownStreams', () => {
  it('never answers "certainly not" for a stream it was told of, across layers', () => {
    const known = new KnownStreams(1024);
    // Layers of 1,024, 2,048, 4,096 and 8,192 ids: the last one takes the last ids.
    const count = 10_000;
    for (let i = 0; i < count; i++) known.add(`order:M:o-${i}`);
    const missed = [];
    for (let i = 0; i < count; i++) if (!known.mayHold(`order:M:o-${i}`)) missed.push(i);
    expect(missed).toEqual([]);
    let maybe = 0;
    for (let i = 0; i < count; i++) if (known.mayHold(`order:M:new-${i}`)) maybe++;
    // Four layers, each at most ~1 % wrong when full.
    expect(maybe).toBeLessThan(400);
  });

  it('answers "certainly not" for almost every stream it was never told of', () => {
    const known = new KnownStreams();
    for (let i = 0; i < 100_000; i++) known.add(`order:M:o-${i}`);
    let maybe = 0;
    for (let i = 0; i < 100_000; i++) if (known.mayHold(`order:M:new-${i}`)) maybe++;
    // A layer a tenth full: far under the 1 % of a full one.
    expect(maybe).toBeLessThan(100);
    expect(known.mayHold('order:M:o-100000')).toBe(false);
  });
});
