import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWithOpenssl, makeTestPki } from '../../../../test/support/certificates';
import { runMerchantCli } from '../../src/cli/merchant.cli';
import { MerchantRegistry, hashPassword } from '@gateway/merchants';

describe('merchant add', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'merchant-cli-'));
    file = join(dir, 'merchants.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function run(...args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runMerchantCli(
      args,
      { out: (l) => out.push(l), err: (l) => err.push(l) },
      { GATEWAY_MERCHANTS_FILE: file },
    );
    const printed = (label: string) =>
      out
        .find((l) => l.startsWith(label))
        ?.slice(label.length)
        .trim();
    return {
      code,
      out,
      err: err.join('\n'),
      password: printed('API password (shown only this once):'),
      secret: printed('Notification secret:'),
    };
  }

  it('creates the file with a verifiable hash and prints the credentials once', async () => {
    const result = await run('add', 'TESTNEW', '--file', file);
    expect(result.code).toBe(0);
    expect(result.password).toMatch(/^[0-9a-f]{32}$/);
    expect(result.secret).toMatch(/^[0-9A-F]{32}$/);
    expect(readFileSync(file, 'utf8')).not.toContain(result.password);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const registry = MerchantRegistry.load(file);
    const merchant = await registry.authenticate('TESTNEW', result.password!);
    expect(merchant).toMatchObject({ id: 'TESTNEW', enabled: true, test: true });
    expect(merchant?.notificationSecret).toBe(result.secret);
    expect(readdirSync(dir)).toEqual(['merchants.json']); // no temporary file left
  });

  it('uses GATEWAY_MERCHANTS_FILE without --file, and keeps the merchants already there', async () => {
    const existing = {
      id: 'TESTOLD',
      passwordHash: await hashPassword('old'),
      notificationSecret: 'OLD-SECRET-0123456789',
    };
    writeFileSync(file, JSON.stringify({ merchants: [existing] }), { mode: 0o640 });
    const result = await run('add', 'SHOP_2');
    expect(result.code).toBe(0);
    expect(result.out.join('\n')).toContain('only merchants whose id starts with TEST');

    const registry = MerchantRegistry.load(file);
    await expect(registry.authenticate('TESTOLD', 'old')).resolves.toBeDefined();
    await expect(registry.authenticate('SHOP_2', result.password!)).resolves.toMatchObject({
      test: false,
    });
    expect(statSync(file).mode & 0o777).toBe(0o640);
  });

  it('refuses an existing merchant and leaves the file untouched', async () => {
    await run('add', 'TESTDUP');
    const before = readFileSync(file, 'utf8');
    const result = await run('add', 'TESTDUP');
    expect(result.code).toBe(1);
    expect(result.err).toContain("merchant 'TESTDUP' already exists");
    expect(result.password).toBeUndefined();
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it.each(['TEST MERCHANT', 'T'.repeat(41), 'TEST/1'])('refuses the invalid id %p', async (id) => {
    const result = await run('add', id);
    expect(result.code).toBe(1);
    expect(result.err).toContain(`merchant id '${id}' is invalid`);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses to extend a file the gateway would not load', async () => {
    writeFileSync(file, JSON.stringify({ merchants: [{ id: 'TESTX' }] }));
    const result = await run('add', 'TESTNEW');
    expect(result.code).toBe(1);
    expect(result.err).toContain('merchants[0].passwordHash is missing');
    expect(readFileSync(file, 'utf8')).toBe(JSON.stringify({ merchants: [{ id: 'TESTX' }] }));
  });

  it.each([
    [[]],
    [['remove', 'TESTA']],
    [['add']],
    [['add', 'TESTA', '--file']],
    [['add', 'TESTA', '--force']],
  ])('prints usage for %p', async (args) => {
    const result = await run(...args);
    expect(result.code).toBe(2);
    expect(result.err).toContain('usage: merchant <command> <merchantId>');
  });
});

describe('merchant administration', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'merchant-admin-'));
    file = join(dir, 'merchants.json');
    await runMerchantCli(['add', 'TESTSHOP', '--file', file], { out: () => {}, err: () => {} });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function run(...args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runMerchantCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }
  const entry = () =>
    (JSON.parse(readFileSync(file, 'utf8')) as { merchants: Record<string, unknown>[] })
      .merchants[0];

  it('rotate-password prints a new password once; only it works after a reload', async () => {
    const before = MerchantRegistry.load(file);
    const result = await run('rotate-password', 'TESTSHOP', '--file', file);
    expect(result.code).toBe(0);
    const password = /shown only this once\): ([0-9a-f]{32})/.exec(result.out)![1];
    expect(readFileSync(file, 'utf8')).not.toContain(password);
    expect(result.out).toContain('SIGHUP');
    before.reload(file);
    await expect(before.authenticate('TESTSHOP', password)).resolves.toBeDefined();
  });

  it('rotate-secret replaces the notification secret', async () => {
    const old = entry().notificationSecret;
    const result = await run('rotate-secret', 'TESTSHOP', '--file', file);
    const secret = /Notification secret: ([0-9A-F]{32})/.exec(result.out)![1];
    expect(secret).not.toBe(old);
    expect(MerchantRegistry.load(file).find('TESTSHOP')?.notificationSecret).toBe(secret);
  });

  it('sets permissions, masking and certificate, and disables and enables', async () => {
    expect((await run('set-permissions', 'TESTSHOP', 'UNMASK', '--file', file)).code).toBe(0);
    expect((await run('set-masking', 'TESTSHOP', '8.4', '--file', file)).code).toBe(0);
    const fingerprint = 'a1'.repeat(32);
    expect(
      (await run('set-certificate', 'TESTSHOP', '--fingerprint', fingerprint, '--file', file)).code,
    ).toBe(0);
    expect((await run('disable', 'TESTSHOP', '--file', file)).code).toBe(0);
    expect(MerchantRegistry.load(file).find('TESTSHOP')).toMatchObject({
      permissions: ['UNMASK'],
      cardMask: '8.4',
      certificate: { fingerprint256: 'A1:'.repeat(31) + 'A1' },
      enabled: false,
    });
    await run('enable', 'TESTSHOP', '--file', file);
    await run('set-permissions', 'TESTSHOP', '--file', file);
    await run('set-certificate', 'TESTSHOP', '--none', '--file', file);
    expect(entry()).not.toHaveProperty('certificate');
    expect(MerchantRegistry.load(file).find('TESTSHOP')).toMatchObject({
      permissions: [],
      enabled: true,
    });
  });

  describeWithOpenssl('with a certificate made by openssl', () => {
    it('takes a certificate fingerprint from a PEM file', async () => {
      const { certFile: pem } = makeTestPki().client('TESTSHOP');
      const result = await run('set-certificate', 'TESTSHOP', '--pem', pem, '--file', file);
      expect(result.code).toBe(0);
      expect(MerchantRegistry.load(file).find('TESTSHOP')?.certificate).toEqual({
        fingerprint256: new X509Certificate(readFileSync(pem)).fingerprint256,
      });
    });
  });

  it.each([
    [['set-masking', 'TESTSHOP', '9.9'], 'masking must be'],
    [['set-permissions', 'TESTSHOP', 'ALL'], 'permissions must be a list of UNMASK'],
    [['set-certificate', 'TESTSHOP', '--fingerprint', 'abc'], 'fingerprint256 must be 32 bytes'],
    [['disable', 'TESTNOBODY'], "merchant 'TESTNOBODY' is not in"],
  ])('refuses %p and leaves the file as it was', async (args, problem) => {
    const before = readFileSync(file, 'utf8');
    const result = await run(...args, '--file', file);
    expect(result.code).toBe(1);
    expect(result.err).toContain(problem);
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(readdirSync(dir)).toEqual(['merchants.json']);
  });
});
