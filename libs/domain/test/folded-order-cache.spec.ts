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

  it('forgets the least recently used first over many evictions, as a plain list would', () => {
    const cache = new FoldedOrderCache(50);
    let model: { id: string; weight: number }[] = []; // oldest first
    let seed = 1;
    const random = (n: number) => (seed = (seed * 48_271) % 2_147_483_647) % n;
    for (let step = 0; step < 5_000; step++) {
      const id = `o${random(80)}`;
      if (random(3) === 0) {
        const hit = model.find((e) => e.id === id);
        expect(cache.get(id)?.revision).toBe(hit && hit.weight - 1);
        if (hit) model = [...model.filter((e) => e !== hit), hit];
        continue;
      }
      const known = model.find((e) => e.id === id);
      const weight = (known?.weight ?? 0) + 1 + random(3);
      cache.remember(id, at(weight - 1));
      model = [...model.filter((e) => e.id !== id), { id, weight }];
      let events = model.reduce((sum, e) => sum + e.weight, 0);
      while (events > 50) events -= model.shift()!.weight;
    }
    expect(cache.size.orders).toBe(model.length);
  });
});
