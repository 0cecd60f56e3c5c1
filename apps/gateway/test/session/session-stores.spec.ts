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
import { asyncSessionStore } from '../../src/session/session.store';
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
  return { store: asyncSessionStore(store), cleanup: remove };
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
