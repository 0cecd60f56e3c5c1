/**
 * A map of at most `limit` entries that forgets the least recently set ones first. Beyond the
 * limit the least recent quarter goes in one pass: evicting one key at a time from the front of
 * a Map makes V8 step over every entry deleted before it, on every eviction.
 */
export class RecentMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly limit: number) {}

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  /** Sets `key` as the most recent entry. */
  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size <= this.limit) return;
    let evicting = Math.ceil(this.limit / 4);
    for (const old of this.entries.keys()) {
      if (evicting-- === 0) break;
      this.entries.delete(old);
    }
  }
}
