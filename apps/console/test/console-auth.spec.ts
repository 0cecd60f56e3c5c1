import { AuthLockout, hashPassword } from '@gateway/merchants';
import Database from 'better-sqlite3';
import type { FastifyRequest } from 'fastify';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConsoleAuth } from '../src/sessions/console-auth';
import { ABSOLUTE_MS, ConsoleDb, IDLE_MS } from '../src/sessions/console-db';
import { ConsoleUsers } from '../src/users/console-users';

describe('console sessions, CSRF and sign-in', () => {
  let dir: string;
  let now: number;
  let db: ConsoleDb;
  let auth: ConsoleAuth;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'console-auth-'));
    const users = [{ username: 'fin', role: 'finance', passwordHash: await hashPassword('right') }];
    writeFileSync(join(dir, 'users.json'), JSON.stringify({ users }));
  });
  beforeEach(() => {
    now = Date.parse('2026-11-26T10:00:00Z');
    db = new ConsoleDb(join(dir, `console-${now}-${Math.random()}.db`), () => now);
    const lockout = new AuthLockout(
      { maxFailures: 3, lockoutSeconds: 60, trackedKeys: 100 },
      () => now,
    );
    auth = new ConsoleAuth(db, new ConsoleUsers(join(dir, 'users.json')), lockout, false);
  });
  afterEach(() => db.close());
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const request = (headers: Record<string, string>) =>
    ({
      headers: { host: 'console.test', ...headers },
      protocol: 'http',
    }) as unknown as FastifyRequest;

  it('ends a session after 30 idle minutes, and 12 hours after sign-in however busy', () => {
    const idle = db.createSession({ username: 'fin', role: 'finance' });
    now += IDLE_MS - 1000;
    expect(db.session(idle)).toBeDefined(); // a request: idle time starts again
    now += IDLE_MS - 1000;
    expect(db.session(idle)).toBeDefined();
    now += IDLE_MS + 1;
    expect(db.session(idle)).toBeUndefined();
    const busy = db.createSession({ username: 'fin', role: 'finance' });
    const end = now + ABSOLUTE_MS;
    while (now < end - 60_000) {
      now += 20 * 60_000;
      if (now < end) expect(db.session(busy)).toBeDefined();
    }
    now = end + 1;
    expect(db.session(busy)).toBeUndefined();
  });

  it('keeps only a hash of the session id', () => {
    const file = join(dir, 'hashed.db');
    const own = new ConsoleDb(file);
    const id = own.createSession({ username: 'fin', role: 'finance' });
    own.close();
    const raw = new Database(file, { readonly: true });
    const stored = raw.prepare('SELECT id_hash FROM session').pluck().all() as string[];
    raw.close();
    expect(stored).toHaveLength(1);
    expect(stored[0]).not.toContain(id);
  });

  it("a POST needs the session's token and this origin (Origin, else Referer)", () => {
    const session = db.session(db.createSession({ username: 'fin', role: 'finance' }))!;
    const form = (token: string) => new URLSearchParams({ _csrf: token });
    const origin = { origin: 'http://console.test' };
    expect(auth.postAllowed(request(origin), session, form(session.csrf))).toBe(true);
    expect(auth.postAllowed(request(origin), session, form(''))).toBe(false);
    expect(auth.postAllowed(request(origin), session, form(`${session.csrf}x`))).toBe(false);
    const evil = { origin: 'http://evil.test' };
    expect(auth.postAllowed(request(evil), session, form(session.csrf))).toBe(false);
    const referer = { referer: 'http://console.test/orders' };
    expect(auth.postAllowed(request(referer), session, form(session.csrf))).toBe(true);
    expect(auth.postAllowed(request({}), session, form(session.csrf))).toBe(false);
    const https = { origin: 'https://console.test' };
    expect(auth.postAllowed(request(https), session, form(session.csrf))).toBe(false);
  });

  it('locks a user name out after 3 failures, the right password included; an unknown name too', async () => {
    for (let i = 0; i < 3; i++)
      expect(await auth.signIn('fin', 'wrong', `10.0.0.${i}`)).toEqual({ kind: 'refused' });
    expect(await auth.signIn('fin', 'right', '10.0.1.1')).toMatchObject({ kind: 'locked' });
    for (let i = 0; i < 3; i++)
      expect(await auth.signIn('ghost', 'x', `10.0.2.${i}`)).toEqual({ kind: 'refused' });
    expect(await auth.signIn('ghost', 'x', '10.0.3.1')).toMatchObject({ kind: 'locked' });
    now += 61_000;
    const result = await auth.signIn('fin', 'right', '10.0.1.1');
    expect(result).toMatchObject({
      kind: 'signed-in',
      session: { username: 'fin', role: 'finance' },
    });
  });

  it('keeps the audit newest first, paged by id, and per user', () => {
    for (let i = 0; i < 5; i++)
      db.audit({
        username: i % 2 ? 'a' : 'b',
        role: 'finance',
        action: 'sign-in',
        target: '',
        outcome: `${i}`,
        client: '::1',
      });
    const first = db.auditPage(2);
    expect(first.map((e) => e.outcome)).toEqual(['4', '3']);
    expect(db.auditPage(2, first[1].id).map((e) => e.outcome)).toEqual(['2', '1']);
    expect(db.auditPage(10, undefined, 'a').map((e) => e.outcome)).toEqual(['3', '1']);
  });
});
