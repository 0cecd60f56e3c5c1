import { LoadShedder } from '../../src/protection/load-shedder';

describe('LoadShedder', () => {
  it('takes requests up to the in-flight limit, and more as they finish; full means not ready', () => {
    const shedder = new LoadShedder(2, 0);
    expect([shedder.admit(), shedder.admit(), shedder.admit()]).toEqual([
      undefined,
      undefined,
      'overloaded',
    ]);
    expect(shedder.isFull).toBe(true);
    shedder.release();
    expect(shedder.isFull).toBe(false);
    expect(shedder.admit()).toBeUndefined();
    expect(shedder.requestsInFlight).toBe(2);
  });

  it('says when draining (new arrivals are refused by the hook, requests already read are not)', () => {
    const shedder = new LoadShedder(0, 0);
    shedder.drain();
    expect(shedder.isDraining).toBe(true);
    expect(shedder.admit()).toBeUndefined();
  });

  it('while the event loop lags, sheds clients with a request in progress, not one without; recovers', async () => {
    const shedder = new LoadShedder(0, 100);
    try {
      const started = Date.now();
      while (Date.now() - started < 700); // the event loop blocked for 0.7 s
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(shedder.admit(1)).toBe('overloaded');
      expect(shedder.admit(0)).toBeUndefined();
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(shedder.admit(1)).toBeUndefined();
    } finally {
      shedder.onApplicationShutdown();
    }
  });
});
