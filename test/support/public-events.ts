import Database from 'better-sqlite3';
import { join } from 'node:path';

/**
 * What the gateway keeps for itself in the order events it stored, none of which may leave it:
 * card fingerprints, request hashes, sealed bank data, and amounts in thousandths.
 */
export interface StoredSecrets {
  readonly values: readonly string[];
  readonly thousandths: readonly number[];
}

/** Read straight from the gateway's SQLite file. */
export function storedSecrets(dataDir: string): StoredSecrets {
  const db = new Database(join(dataDir, 'events.db'), { readonly: true });
  const values = new Set<string>();
  const thousandths = new Set<number>();
  const walk = (value: unknown, key: string): void => {
    if (typeof value === 'string' && ['fingerprint', 'requestHash', 'sealed'].includes(key))
      values.add(value);
    else if (typeof value === 'number' && /amount$/i.test(key) && value >= 1000)
      thousandths.add(value);
    else if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) walk(v, key === 'sealed' ? 'sealed' : k);
  };
  try {
    const rows = db.prepare("SELECT data FROM events WHERE stream_id LIKE 'order:%'").pluck();
    for (const data of rows.all() as string[]) walk(JSON.parse(data), '');
  } finally {
    db.close();
  }
  return { values: [...values], thousandths: [...thousandths] };
}

/** A serialized public event holds nothing of the stored events' own, and no stored member. */
export function expectNothingStored(serialized: string, secrets: StoredSecrets): void {
  for (const key of ['fingerprint', 'requestHash', 'sealed', 'processor', 'data', 'metadata'])
    expect(serialized).not.toContain(`"${key}"`);
  expect(serialized).not.toContain('"streamId"');
  for (const value of secrets.values) expect(serialized).not.toContain(value);
  for (const amount of secrets.thousandths)
    expect(serialized).not.toMatch(new RegExp(`Amount":${amount}[,}]|"amount":${amount}[,}]`));
}
