import { KnownStreams } from '../../src/order/known-streams';

describe('KnownStreams', () => {
  it('never answers "certainly not" for a stream it was told of, across layers', () => {
    const known = new KnownStreams();
    // Past the first layer's room (2^20), so the second layer takes the last ids.
    const count = (1 << 20) + 50_000;
    for (let i = 0; i < count; i++) known.add(`order:M:o-${i}`);
    for (let i = 0; i < count; i += 97) expect(known.mayHold(`order:M:o-${i}`)).toBe(true);
    expect(known.mayHold(`order:M:o-${count - 1}`)).toBe(true);
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
