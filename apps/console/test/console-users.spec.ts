import { hashPassword, verifyPassword } from '@gateway/merchants';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runConsoleUserCli } from '../src/cli/console-user.cli';
import { ConsoleUsers, parseUsers, UsersFileError } from '../src/users/console-users';

describe('console users file', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'console-users-'));
    file = join(dir, 'console-users.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** The CLI's exit code and output lines. */
  async function cli(...args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runConsoleUserCli(
      [...args, '--file', file],
      { out: (l) => out.push(l), err: (l) => err.push(l) },
      {},
    );
    return { code, out, err };
  }

  it('reports every problem of a file at once', async () => {
    const hash = await hashPassword('x');
    const document = {
      users: [
        { username: 'a', role: 'merchant', passwordHash: hash },
        { username: 'a', role: 'finance', merchantId: 'M', passwordHash: 'plain' },
        { username: 'bad name', role: 'boss', passwordHash: hash, extra: 1 },
      ],
    };
    let problems = '';
    try {
      parseUsers(document, 'users.json');
    } catch (error) {
      expect(error).toBeInstanceOf(UsersFileError);
      problems = (error as Error).message;
    }
    for (const problem of [
      'users[0]: a merchant user needs its merchant: merchantId is missing',
      "users[1].username 'a' appears twice",
      'users[1].merchantId is only for the merchant role',
      'users[1].passwordHash is not a scrypt hash',
      'users[2].extra is not a field of a console user',
      'users[2].username must be 1-64 characters',
      'users[2].role must be one of merchant, finance, operator',
    ])
      expect(problems).toContain(problem);
  });

  it('the CLI adds, lists, sets a password and removes; the console sees each change without a restart', async () => {
    const added = await cli('add', 'shop', '--role', 'merchant', '--merchant', 'TESTMERCHANT');
    expect(added.code).toBe(0);
    const password = /shown only this once\): (\S+)/.exec(added.out.join('\n'))![1];
    expect((await cli('add', 'fin', '--role', 'finance')).code).toBe(0);
    const users = new ConsoleUsers(file);
    expect(await verifyPassword(password, users.find('shop')!.passwordHash)).toBe(true);
    expect((await cli('list')).out).toEqual(['shop\tmerchant\tTESTMERCHANT', 'fin\tfinance']);
    const reset = await cli('set-password', 'shop');
    const next = /shown only this once\): (\S+)/.exec(reset.out.join('\n'))![1];
    expect(await verifyPassword(next, users.find('shop')!.passwordHash)).toBe(true);
    expect((await cli('remove', 'shop')).code).toBe(0);
    expect(users.find('shop')).toBeUndefined();
    expect(readFileSync(file, 'utf8')).not.toContain(next);
  });

  it('the CLI: usage mistakes exit 2, file problems 1, --help 0', async () => {
    expect((await cli('add', 'x', '--role', 'merchant')).code).toBe(2); // no merchant
    expect((await cli('add', 'x', '--role', 'finance', '--merchant', 'M')).code).toBe(2);
    expect((await cli('add', 'x', '--role', 'boss')).code).toBe(2);
    expect((await cli('add', 'x', '--role', 'operator', '--role', 'finance')).code).toBe(2);
    expect((await cli('frobnicate')).code).toBe(2);
    expect((await cli('remove', 'nobody')).err.join()).toMatch(/Cannot read|no user/);
    expect((await cli('remove', 'nobody')).code).toBe(1);
    const help = await runConsoleUserCli(['--help'], { out: () => {}, err: () => {} });
    expect(help).toBe(0);
  });

  it('keeps the users read last when the file is broken meanwhile, and says so', async () => {
    await cli('add', 'fin', '--role', 'finance');
    const warnings: string[] = [];
    const users = new ConsoleUsers(file, (w) => warnings.push(w));
    writeFileSync(file, '{ not json');
    expect(users.find('fin')).toBeDefined();
    expect(warnings.join()).toMatch(/not reloaded/);
  });
});
