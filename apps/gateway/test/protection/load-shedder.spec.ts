import { LoadShedder } from '../../src/protection/load-shedder';

describe('LoadShedder', () => {
  it('takes requests up to the in-flight limit, and more as they finish', () => {
    const shedder = new LoadShedder(2, 0);
    expect([shedder.admit(), shedder.admit(), shedder.admit()]).toEqual([
      undefined,
      undefined,
      'overloaded',
    ]);
    shedder.release();
    expect(shedder.admit()).toBeUndefined();
    shedder.admitAlways();
    expect(shedder.requestsInFlight).toBe(3);
  });

  it('refuses everything once draining', () => {
    const shedder = new LoadShedder(0, 0);
    expect(shedder.admit()).toBeUndefined();
    shedder.drain();
    expect(shedder.isDraining).toBe(true);
    expect(shedder.admit()).toBe('shutting_down');
  });

  it('sheds while the event loop lags, and recovers when it no longer does', async () => {
    const shedder = new LoadShedder(0, 100);
    try {
      const started = Date.now();
      while (Date.now() - started < 700); // the event loop blocked for 0.7 s
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(shedder.admit()).toBe('overloaded');
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(shedder.admit()).toBeUndefined();
    } finally {
      shedder.onApplicationShutdown();
    }
  });
});
