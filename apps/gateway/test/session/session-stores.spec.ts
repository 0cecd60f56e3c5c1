import {
  InMemoryEventStore,
  KurrentDbEventStore,
  SqliteEventStore,
  type EventStore,
} from '@gateway/event-store';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKurrentDbStandin } from '../../../../test/support/kurrentdb-standin/standin-server';
import { AesGcmKeyring } from '../../src/crypto/aes-gcm-keyring';
import {
  EventStoreSessionStore,
  sessionStreamId,
} from '../../src/session/event-store-session.store';
import { InMemorySecretStore } from '../../src/secrets/secret-store';
import { withoutSecurityCode } from '../../src/session/session-fields';
import { SqliteSessionStore } from '../../src/session/sqlite-session.store';
import { describeSessionStoreContract, storedSession } from './session-store.contract';

const sessionKey = () => AesGcmKeyring.ofKey(randomBytes(32));

function tempDir(): { dir: string; remove: () => Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), 'sessions-'));
  return { dir, remove: async () => rmSync(dir, { recursive: true, force: true }) };
}

describeSessionStoreContract('SQLite sessions.db', async () => {
  const { dir, remove } = tempDir();
  const store = new SqliteSessionStore(join(dir, 'sessions.db'), sessionKey());
  return { store, cleanup: remove };
});

describeSessionStoreContract('event store (in memory)', async () => ({
  store: new EventStoreSessionStore(
    new InMemoryEventStore(),
    new InMemorySecretStore(),
    sessionKey(),
  ),
}));

describeSessionStoreContract('event store (embedded SQLite)', async () => {
  const { dir, remove } = tempDir();
  const events = await SqliteEventStore.open({ filename: join(dir, 'events.db') });
  const store = new EventStoreSessionStore(events, new InMemorySecretStore(), sessionKey());
  return { store, cleanup: async () => (await events.close(), remove()) };
});

describeSessionStoreContract('event store (KurrentDB protocol stand-in)', async () => {
  const standin = await startKurrentDbStandin();
  const events = new KurrentDbEventStore({ connectionString: standin.connectionString });
  const store = new EventStoreSessionStore(events, new InMemorySecretStore(), sessionKey());
  return { store, cleanup: async () => (await events.close(), standin.stop()) };
});

describe('EventStoreSessionStore at rest', () => {
  const CARD = '5123450000000008';
  const CODE = '739';
  let events: EventStore;
  let dataKeys: InMemorySecretStore;
  let store: EventStoreSessionStore;

  beforeEach(() => {
    events = new InMemoryEventStore();
    dataKeys = new InMemorySecretStore();
    store = new EventStoreSessionStore(events, dataKeys, sessionKey());
  });

  const withCard = storedSession({
    content: {
      aes256Key: 'a2V5',
      fields: { sourceOfFunds: { provided: { card: { number: CARD, securityCode: CODE } } } },
    },
  });
  const written = async () =>
    JSON.stringify(
      (await events.readStream(sessionStreamId(withCard.id))).map(({ data, metadata }) => ({
        data,
        metadata,
      })),
    );

  it('never writes the card number or the content in the clear', async () => {
    await store.create(withCard);
    expect(await written()).not.toContain(CARD);
    expect(await written()).not.toContain('aes256Key');
    expect(await store.find('MERCHANT1', withCard.id, new Date(0))).toEqual(withCard);
  });

  it('leaves a forgotten security code unreadable in every event, the keys file notwithstanding', async () => {
    await store.create(withCard);
    const fields = withoutSecurityCode(withCard.content.fields);
    const forgotten = { version: withCard.version, content: { ...withCard.content, fields } };
    await store.replace('MERCHANT1', withCard.id, withCard.version, forgotten);
    const history = await events.readStream(sessionStreamId(withCard.id));
    const keyIds = history.map(({ data }) => (data as { keyId: string }).keyId);
    const keys = keyIds.map((keyId) => dataKeys.get(`session:${withCard.id}:${keyId}`));
    expect(await Promise.all(keys)).toEqual([undefined, expect.any(String)]);
    expect(await store.find('MERCHANT1', withCard.id, new Date(0))).toEqual({
      ...withCard,
      ...forgotten,
    });
  });
});

describe('EventStoreSessionStore on two nodes, each remembering what it last read', () => {
  const NOW = new Date('2026-11-26T12:00:00.000Z');
  const content = (amount: string) => ({ aes256Key: 'a2V5', fields: { order: { amount } } });

  it('neither loses an update nor refuses one for a state another node moved on', async () => {
    const events = new InMemoryEventStore();
    const secrets = new InMemorySecretStore();
    const key = sessionKey();
    const [a, b] = [1, 2].map(() => new EventStoreSessionStore(events, secrets, key));
    const session = storedSession();
    await a.create(session);
    await a.find('MERCHANT1', session.id, NOW);
    // B moves the session on; A still remembers the first version.
    const second = { version: 'bbbbbbbbbb', content: content('20.00') };
    expect(await b.replace('MERCHANT1', session.id, session.version, second)).toBe(true);
    expect(await a.replace('MERCHANT1', session.id, session.version, second)).toBe(false);
    const third = { version: 'cccccccccc', content: content('30.00') };
    expect(await a.replace('MERCHANT1', session.id, 'bbbbbbbbbb', third)).toBe(true);
    // B remembers its own write; a binding on A since then makes B's append fail, then B reads.
    expect(await a.bindToOrder('MERCHANT1', session.id, 'order-1')).toBe(true);
    expect(await b.bindToOrder('MERCHANT1', session.id, 'order-2')).toBe(false);
    const fourth = { version: 'dddddddddd', content: content('40.00') };
    expect(await b.replace('MERCHANT1', session.id, 'cccccccccc', fourth)).toBe(true);
    expect(await a.find('MERCHANT1', session.id, NOW)).toEqual({
      ...session,
      ...fourth,
      orderId: 'order-1',
    });
  });

  it('writes a step after its read without reading the stream again', async () => {
    const events = new InMemoryEventStore();
    const store = new EventStoreSessionStore(events, new InMemorySecretStore(), sessionKey());
    const session = storedSession();
    await store.create(session);
    await store.find('MERCHANT1', session.id, NOW);
    const reads = jest.spyOn(events, 'readStream');
    const next = { version: 'bbbbbbbbbb', content: content('20.00') };
    expect(await store.replace('MERCHANT1', session.id, session.version, next)).toBe(true);
    expect(await store.bindToOrder('MERCHANT1', session.id, 'order-1')).toBe(true);
    expect(reads).not.toHaveBeenCalled();
  });
});
