import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inspect } from 'node:util';
import {
  defaultMerchantsFile,
  type Merchant,
  MerchantFileError,
  MerchantRegistry,
  parseMerchants,
} from '../src/merchant-registry';
import * as passwordHash from '../src/password-hash';

// Count scrypt verifications while keeping the real implementation.
jest.mock('../src/password-hash', () => {
  const actual = jest.requireActual('../src/password-hash');
  return { ...actual, verifyPassword: jest.fn(actual.verifyPassword) };
});
const verifyPassword = passwordHash.verifyPassword as jest.MockedFunction<
  typeof passwordHash.verifyPassword
>;

const SECRET = 'NOTIFICATION-SECRET-0001';

describe('merchants file validation', () => {
  let hash: string;
  beforeAll(async () => {
    hash = await passwordHash.hashPassword('pw');
  });
  const entry = (fields: object) => ({
    id: 'TESTA',
    passwordHash: hash,
    notificationSecret: SECRET,
    ...fields,
  });
  const problemsOf = (document: unknown) => {
    try {
      parseMerchants(document, 'merchants.json');
    } catch (error) {
      expect(error).toBeInstanceOf(MerchantFileError);
      return (error as Error).message;
    }
    throw new Error('expected the file to be refused');
  };

  it('accepts a valid file; enabled defaults to true and TEST ids are test merchants', () => {
    const merchants = parseMerchants(
      { merchants: [entry({}), entry({ id: 'shop_1-x', enabled: false })] },
      'merchants.json',
    );
    const defaults = { permissions: [], cardMask: '6.4' };
    expect(merchants).toEqual([
      {
        id: 'TESTA',
        passwordHash: hash,
        notificationSecret: SECRET,
        enabled: true,
        test: true,
        ...defaults,
      },
      {
        id: 'shop_1-x',
        passwordHash: hash,
        notificationSecret: SECRET,
        enabled: false,
        test: false,
        ...defaults,
      },
    ]);
  });

  it('reads certificate, permissions and masking, normalising how a certificate is named', () => {
    const fingerprint = 'ab'.repeat(32);
    const [byFingerprint, bySubject] = parseMerchants(
      {
        merchants: [
          entry({
            certificate: { fingerprint256: fingerprint },
            permissions: ['UNMASK'],
            masking: { cardNumber: '8.4' },
          }),
          entry({ id: 'TESTB', certificate: { subject: 'CN=Shop B, O=Example' } }),
        ],
      },
      'merchants.json',
    );
    expect(byFingerprint).toMatchObject({
      certificate: { fingerprint256: 'AB:'.repeat(31) + 'AB' },
      permissions: ['UNMASK'],
      cardMask: '8.4',
    });
    expect(bySubject.certificate).toEqual({ subject: 'CN=Shop B\nO=Example' });
  });

  it.each([
    [{ certificate: {} }, 'merchants[0].certificate must be { "fingerprint256"'],
    [
      { certificate: { fingerprint256: 'ab'.repeat(32), subject: 'CN=x' } },
      'merchants[0].certificate must be',
    ],
    [{ certificate: { fingerprint256: 'abc' } }, 'certificate.fingerprint256 must be 32 bytes'],
    [{ certificate: { subject: 'nobody' } }, 'certificate.subject must be a distinguished name'],
    [{ permissions: ['EVERYTHING'] }, 'merchants[0].permissions must be a list of UNMASK'],
    [{ permissions: 'UNMASK' }, 'merchants[0].permissions must be a list of UNMASK'],
    [{ masking: { cardNumber: '12.4' } }, 'merchants[0].masking must be { "cardNumber"'],
    [{ masking: { iban: 'NONE' } }, 'merchants[0].masking must be'],
  ])('refuses %p', (fields, problem) => {
    expect(problemsOf({ merchants: [entry(fields)] })).toContain(problem);
  });

  it.each([
    ['a duplicate id', [entry({}), entry({})], "merchants[1].id 'TESTA' duplicates merchants[0]"],
    ['a bad id', [entry({ id: 'TEST A' })], "merchants[0]: merchant id 'TEST A' is invalid"],
    ['a too long id', [entry({ id: 'T'.repeat(41) })], 'is invalid: use 1-40 characters'],
    ['an empty id', [entry({ id: '' })], "merchant id '' is invalid"],
    [
      'an id holding a card number',
      [entry({ id: 'TEST-5123-4500-0000-0008' })],
      'merchants[0]: a merchant id is invalid: it holds a number that could be a card number',
    ],
    ['a missing id', [entry({ id: undefined })], 'merchants[0].id is missing'],
    [
      'a missing hash',
      [entry({ passwordHash: undefined })],
      'merchants[0].passwordHash is missing',
    ],
    [
      'a malformed hash',
      [entry({ passwordHash: 'secret' })],
      'passwordHash is not a scrypt$N$r$p$salt$hash',
    ],
    [
      'a missing secret',
      [entry({ notificationSecret: undefined })],
      'notificationSecret is missing',
    ],
    ['a short secret', [entry({ notificationSecret: 'short' })], 'must be 16-256 visible ASCII'],
    [
      'a non-boolean enabled',
      [entry({ enabled: 'yes' })],
      'merchants[0].enabled must be true or false',
    ],
    [
      'an unknown field',
      [entry({ passwordhash: 'x' })],
      'merchants[0].passwordhash is not a known field',
    ],
    ['a non-object entry', ['TESTA'], 'merchants[0] must be an object'],
  ])('refuses %s', (_, merchants, problem) => {
    expect(problemsOf({ merchants })).toContain(problem);
  });

  it.each([null, [], { merchant: [] }, { merchants: {} }])(
    'refuses %p as a document',
    (document) => {
      expect(problemsOf(document)).toContain('expected an object with a "merchants" array');
    },
  );

  it('reports every problem at once', () => {
    const message = problemsOf({
      merchants: [entry({ id: 'bad id' }), entry({ passwordHash: 'x' })],
    });
    expect(message).toContain('merchants[0]');
    expect(message).toContain('merchants[1]');
  });
});

describe('MerchantRegistry', () => {
  let dir: string;
  let merchants: Merchant[];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'merchants-'));
    const passwordHashOf = passwordHash.hashPassword;
    merchants = [
      {
        id: 'TESTA',
        passwordHash: await passwordHashOf('right'),
        enabled: true,
        notificationSecret: SECRET,
        test: true,
        permissions: [],
        cardMask: '6.4',
      },
      {
        id: 'TESTOFF',
        passwordHash: await passwordHashOf('right'),
        enabled: false,
        notificationSecret: SECRET,
        test: true,
        permissions: [],
        cardMask: '6.4',
      },
    ];
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeEach(() => verifyPassword.mockClear());

  it('loads a file and finds merchants by id', () => {
    const file = join(dir, 'ok.json');
    const entries = merchants.map(({ test: _, permissions: _p, cardMask: _m, ...m }) => m);
    writeFileSync(file, JSON.stringify({ merchants: entries }));
    const registry = MerchantRegistry.load(file);
    expect(registry.find('TESTA')).toEqual(merchants[0]);
    expect(registry.find('NOPE')).toBeUndefined();
  });

  it('names the file when it cannot be read or parsed', () => {
    const missing = join(dir, 'missing.json');
    expect(() => MerchantRegistry.load(missing)).toThrow(`Cannot read merchants file ${missing}`);
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{ "merchants": [');
    expect(() => MerchantRegistry.load(broken)).toThrow(`${broken} is not valid JSON`);
  });

  it('ships a demo merchant that accepts the documented password', async () => {
    const registry = MerchantRegistry.load(resolve(__dirname, '../../../config/merchants.json'));
    const merchant = await registry.authenticate('TESTMERCHANT', 'demo-password-change-me');
    expect(merchant).toMatchObject({ id: 'TESTMERCHANT', enabled: true, test: true });
  });

  it('reload replaces the merchants and forgets remembered passwords; a bad file changes nothing', async () => {
    const file = join(dir, 'reload.json');
    const write = (password: string) =>
      passwordHash.hashPassword(password).then((hash) =>
        writeFileSync(
          file,
          JSON.stringify({
            merchants: [{ id: 'TESTR', passwordHash: hash, notificationSecret: SECRET }],
          }),
        ),
      );
    await write('first');
    const registry = MerchantRegistry.load(file);
    await expect(registry.authenticate('TESTR', 'first')).resolves.toBeDefined();
    await write('second');
    registry.reload(file);
    await expect(registry.authenticate('TESTR', 'first')).resolves.toBeUndefined();
    await expect(registry.authenticate('TESTR', 'second')).resolves.toBeDefined();
    writeFileSync(file, '{"merchants": [{}]}');
    expect(() => registry.reload(file)).toThrow(MerchantFileError);
    await expect(registry.authenticate('TESTR', 'second')).resolves.toBeDefined();
  });

  it('authenticates the right password only', async () => {
    const registry = new MerchantRegistry(merchants);
    await expect(registry.authenticate('TESTA', 'right')).resolves.toBe(merchants[0]);
    await expect(registry.authenticate('TESTA', 'wrong')).resolves.toBeUndefined();
    await expect(registry.authenticate('testa', 'right')).resolves.toBeUndefined();
  });

  it('refuses a disabled merchant and an unknown one, still paying for scrypt', async () => {
    const registry = new MerchantRegistry(merchants);
    await expect(registry.authenticate('TESTOFF', 'right')).resolves.toBeUndefined();
    await expect(registry.authenticate('NOPE', 'right')).resolves.toBeUndefined();
    expect(verifyPassword).toHaveBeenCalledTimes(2);
  });

  it('remembers a verified password, but checks every other one with scrypt', async () => {
    const registry = new MerchantRegistry(merchants);
    await expect(registry.authenticate('TESTA', 'right')).resolves.toBe(merchants[0]);
    expect(verifyPassword).toHaveBeenCalledTimes(1);

    const started = process.hrtime.bigint();
    for (let i = 0; i < 1000; i++) await registry.authenticate('TESTA', 'right');
    const perCall = Number(process.hrtime.bigint() - started) / 1e6 / 1000;
    expect(perCall).toBeLessThan(1); // milliseconds; a scrypt check takes tens
    expect(verifyPassword).toHaveBeenCalledTimes(1);

    await expect(registry.authenticate('TESTA', 'wrong')).resolves.toBeUndefined();
    await expect(registry.authenticate('TESTA', 'wrong')).resolves.toBeUndefined();
    expect(verifyPassword).toHaveBeenCalledTimes(3);
    await expect(registry.authenticate('TESTA', 'right')).resolves.toBe(merchants[0]);
    expect(verifyPassword).toHaveBeenCalledTimes(3);
  });

  it('shares one scrypt run between identical checks in flight', async () => {
    const registry = new MerchantRegistry(merchants);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => registry.authenticate('TESTA', 'right')),
    );
    expect(results.every((m) => m === merchants[0])).toBe(true);
    expect(verifyPassword).toHaveBeenCalledTimes(1);
  });

  it('tells at once whether a password is the remembered one, and whether one is being checked', async () => {
    const registry = new MerchantRegistry(merchants);
    expect(registry.remembered('TESTA', 'right')).toBeUndefined();
    const check = registry.authenticate('TESTA', 'right');
    expect(registry.isChecking('TESTA', 'right')).toBe(true);
    expect(registry.isChecking('TESTA', 'wrong')).toBe(false);
    await check;
    expect(registry.isChecking('TESTA', 'right')).toBe(false);
    expect(registry.remembered('TESTA', 'right')).toBe(merchants[0]);
    expect(registry.remembered('TESTA', 'wrong')).toBeUndefined();
    expect(registry.remembered('NOPE', 'right')).toBeUndefined();
    expect(verifyPassword).toHaveBeenCalledTimes(1);
  });

  it('never holds a clear password', async () => {
    const registry = new MerchantRegistry(merchants);
    await registry.authenticate('TESTA', 'right');
    expect(inspect(registry, { depth: 10, showHidden: true })).not.toContain('right');
  });
});

describe('defaultMerchantsFile', () => {
  it('is config/merchants.json under the working directory unless the environment says', () => {
    expect(defaultMerchantsFile({}, '/srv/gw')).toBe('/srv/gw/config/merchants.json');
    expect(defaultMerchantsFile({ GATEWAY_MERCHANTS_FILE: 'm.json' }, '/srv/gw')).toBe(
      '/srv/gw/m.json',
    );
    expect(defaultMerchantsFile({ GATEWAY_MERCHANTS_FILE: '/etc/m.json' }, '/srv/gw')).toBe(
      '/etc/m.json',
    );
  });
});
