import type { SessionStore, StoredSession } from '../../src/session/session.store';

export interface SessionStoreUnderTest {
  readonly store: SessionStore;
  readonly cleanup?: () => Promise<void>;
}

const NOW = new Date('2026-11-26T12:00:00.000Z');
const LATER = new Date('2026-11-26T13:00:00.000Z');

export function storedSession(overrides: Partial<StoredSession> = {}): StoredSession {
  return {
    merchantId: 'MERCHANT1',
    id: `SESSION${Math.random().toString(36).slice(2, 14).toUpperCase().padEnd(25, 'A')}`,
    version: 'aaaaaaaaaa',
    expiresAt: '2026-11-26T12:30:00.000Z',
    content: { aes256Key: 'a2V5', fields: { order: { amount: '10.00' } } },
    ...overrides,
  };
}

/** What every SessionStore adapter must do (session.store.ts), run against each of them. */
export function describeSessionStoreContract(
  name: string,
  open: () => Promise<SessionStoreUnderTest>,
): void {
  describe(`SessionStore contract: ${name}`, () => {
    let store: SessionStore;
    let cleanup: (() => Promise<void>) | undefined;

    beforeEach(async () => ({ store, cleanup } = await open()));
    afterEach(async () => {
      await store.close();
      await cleanup?.();
    });

    it('finds a session its merchant created, until it expires', async () => {
      const session = storedSession({ orderId: 'order-1' });
      await store.create(session);
      expect(await store.find('MERCHANT1', session.id, NOW)).toEqual(session);
      expect(await store.find('MERCHANT2', session.id, NOW)).toBeUndefined();
      expect(await store.find('MERCHANT1', session.id, LATER)).toBeUndefined();
      expect(await store.find('MERCHANT1', `${session.id}X`, NOW)).toBeUndefined();
    });

    it('tells the merchant of a live session by its id alone', async () => {
      const session = storedSession({ merchantId: 'MERCHANT2' });
      await store.create(session);
      expect(await store.merchantOf(session.id, NOW)).toBe('MERCHANT2');
      expect(await store.merchantOf(session.id, LATER)).toBeUndefined();
    });

    it('replaces the content only at the expected version', async () => {
      const session = storedSession();
      await store.create(session);
      const next = { version: 'bbbbbbbbbb', content: { ...session.content, fields: { a: 1 } } };
      expect(await store.replace('MERCHANT1', session.id, 'cccccccccc', next)).toBe(false);
      expect(await store.replace('MERCHANT2', session.id, session.version, next)).toBe(false);
      expect(await store.replace('MERCHANT1', session.id, session.version, next)).toBe(true);
      expect(await store.find('MERCHANT1', session.id, NOW)).toEqual({ ...session, ...next });
    });

    it('lets one of two concurrent updates of one version win', async () => {
      const session = storedSession();
      await store.create(session);
      const update = (version: string) =>
        store.replace('MERCHANT1', session.id, session.version, {
          version,
          content: { ...session.content, fields: { version } },
        });
      const won = await Promise.all([update('dddddddddd'), update('eeeeeeeeee')]);
      expect(won.filter(Boolean)).toHaveLength(1);
      const winner = won[0] ? 'dddddddddd' : 'eeeeeeeeee';
      const found = await store.find('MERCHANT1', session.id, NOW);
      expect(found).toMatchObject({ version: winner, content: { fields: { version: winner } } });
    });

    it('keeps the version when the content is replaced at the same version', async () => {
      const session = storedSession();
      await store.create(session);
      const cleaned = { version: session.version, content: { ...session.content, fields: {} } };
      expect(await store.replace('MERCHANT1', session.id, session.version, cleaned)).toBe(true);
      expect(await store.find('MERCHANT1', session.id, NOW)).toEqual({ ...session, ...cleaned });
    });

    it('binds a session to one order only', async () => {
      const session = storedSession();
      await store.create(session);
      expect(await store.bindToOrder('MERCHANT1', session.id, 'order-1')).toBe(true);
      expect(await store.bindToOrder('MERCHANT1', session.id, 'order-1')).toBe(true);
      expect(await store.bindToOrder('MERCHANT1', session.id, 'order-2')).toBe(false);
      expect(await store.find('MERCHANT1', session.id, NOW)).toMatchObject({ orderId: 'order-1' });
      // A binding does not move the version: an update at that version still succeeds.
      const next = { version: 'ffffffffff', content: session.content };
      expect(await store.replace('MERCHANT1', session.id, session.version, next)).toBe(true);
    });

    it('forgets expired sessions when purged, and only those', async () => {
      const expired = storedSession({ expiresAt: '2026-11-26T11:00:00.000Z' });
      const live = storedSession();
      await store.create(expired);
      await store.create(live);
      await store.purgeExpired(NOW);
      expect(await store.find('MERCHANT1', expired.id, new Date(0))).toBeUndefined();
      expect(await store.find('MERCHANT1', live.id, NOW)).toEqual(live);
    });
  });
}
