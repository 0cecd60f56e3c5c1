/**
 * What a payment session costs in each store: N sessions created, updated once (with a card),
 * then read, one at a time, CPU and wall time per call (docs/sessions.md).
 *   npm run build && node dist/bench/session-stores.bench.js [N]
 */
import { InMemoryEventStore, SqliteEventStore } from '@gateway/event-store';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { AesGcmKeyring } from '../apps/gateway/src/crypto/aes-gcm-keyring';
import { EventStoreSessionStore } from '../apps/gateway/src/session/event-store-session.store';
import { InMemorySecretStore } from '../apps/gateway/src/secrets/secret-store';
import type { SessionStore } from '../apps/gateway/src/session/session.store';
import { SqliteSessionStore } from '../apps/gateway/src/session/sqlite-session.store';

const total = Number(process.argv[2] ?? 2000);
const card = {
  number: '5123450000000008',
  expiry: { month: '1', year: '39' },
  securityCode: '100',
};
const fields = {
  sourceOfFunds: { provided: { card } },
  order: { amount: '10.00', currency: 'USD' },
};

async function perCall(ids: string[], call: (id: string) => Promise<unknown>): Promise<string> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (const id of ids) await call(id);
  const { user, system } = process.cpuUsage(cpu);
  const wall = ((performance.now() - started) * 1000) / ids.length;
  return `${((user + system) / ids.length).toFixed(0)} µs CPU / ${wall.toFixed(0)} µs wall`;
}

async function measure(name: string, store: SessionStore): Promise<void> {
  const now = new Date();
  const expiresAt = new Date(now.getTime() + 3_600_000).toISOString();
  const ids = Array.from({ length: total }, (_, i) => `SESSION${String(i).padStart(25, 'A')}`);
  const content = { aes256Key: 'k', fields: {} };
  const create = await perCall(ids, (id) =>
    store.create({ merchantId: 'M', id, version: 'aaaaaaaaaa', expiresAt, content }),
  );
  const next = { version: 'bbbbbbbbbb', content: { ...content, fields } };
  const update = await perCall(ids, (id) => store.replace('M', id, 'aaaaaaaaaa', next));
  const find = await perCall(ids, (id) => store.find('M', id, now));
  console.log(`${name}: create ${create}; update ${update}; find ${find}`);
}

async function main(): Promise<void> {
  const key = () => AesGcmKeyring.ofKey(randomBytes(32));
  const dir = mkdtempSync(join(tmpdir(), 'session-stores-bench-'));
  const sqlite = new SqliteSessionStore(join(dir, 'sessions.db'), key());
  await measure('sessions.db', sqlite);
  const memory = new InMemoryEventStore();
  await measure(
    'event store in memory',
    new EventStoreSessionStore(memory, new InMemorySecretStore(), key()),
  );
  const events = await SqliteEventStore.open({ filename: join(dir, 'events.db') });
  await measure(
    'embedded event store',
    new EventStoreSessionStore(events, new InMemorySecretStore(), key()),
  );
  await events.close();
  await sqlite.close();
  rmSync(dir, { recursive: true });
}

void main();
