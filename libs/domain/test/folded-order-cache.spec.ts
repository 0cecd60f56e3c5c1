import { FoldedOrderCache, initialState } from '@gateway/domain';

const at = (revision: number) => ({ state: initialState(), revision });

describe('FoldedOrderCache', () => {
  it('holds at most its budget of folded events, least recently used forgotten first', () => {
    const cache = new FoldedOrderCache(10);
    cache.remember('a', at(3)); // 4 events
    cache.remember('b', at(3));
    cache.get('a');
    cache.remember('c', at(1)); // 10 events: full
    expect(cache.size).toEqual({ orders: 3, events: 10 });
    cache.remember('d', at(0)); // b, least recently used, goes
    expect(cache.get('b')).toBeUndefined();
    expect(cache.size).toEqual({ orders: 3, events: 7 });
    expect([cache.get('a'), cache.get('c'), cache.get('d')].map((e) => e?.revision)).toEqual([
      3, 1, 0,
    ]);
  });

  it('keeps the later of two folds of one stream', () => {
    const cache = new FoldedOrderCache(100);
    const later = at(5);
    cache.remember('a', later);
    cache.remember('a', at(4));
    expect(cache.get('a')).toBe(later);
    cache.remember('a', at(6));
    expect(cache.get('a')?.revision).toBe(6);
    expect(cache.size).toEqual({ orders: 1, events: 7 });
  });

  it('does not keep an order longer than its whole budget', () => {
    const cache = new FoldedOrderCache(5);
    cache.remember('small', at(1));
    cache.remember('long', at(5));
    expect(cache.get('long')).toBeUndefined();
    expect(cache.size).toEqual({ orders: 1, events: 2 });
  });
});
