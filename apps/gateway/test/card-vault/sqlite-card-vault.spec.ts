import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteCardVault } from '../../src/card-vault/sqlite-card-vault';
import { AesGcmKeyring } from '../../src/crypto/aes-gcm-keyring';

const NUMBER = '5123450000000008';

function open() {
  const filename = join(mkdtempSync(join(tmpdir(), 'vault-')), 'vault.db');
  const dataKey = AesGcmKeyring.ofKey(randomBytes(32));
  return { filename, dataKey, vault: new SqliteCardVault(filename, dataKey) };
}

/** vault.db and its WAL, as bytes. */
function filesOf(filename: string): Buffer {
  const wal = `${filename}-wal`;
  return Buffer.concat([readFileSync(filename), existsSync(wal) ? readFileSync(wal) : Buffer.of()]);
}

describe('the card vault', () => {
  it('gives back the number of the token it was kept for, and of no other', () => {
    const { vault } = open();
    vault.put('M', 'T1', NUMBER);
    expect(vault.get('M', 'T1')).toBe(NUMBER);
    expect(vault.get('M', 'T2')).toBeUndefined();
    expect(vault.get('OTHER', 'T1')).toBeUndefined();
  });

  it('keeps no number in clear in its files', () => {
    const { filename, vault } = open();
    vault.put('M', 'T1', NUMBER);
    expect(filesOf(filename).includes(NUMBER)).toBe(false);
  });

  it("needs the data key: another data key cannot open the token's key", () => {
    const { filename, vault } = open();
    vault.put('M', 'T1', NUMBER);
    vault.close();
    const other = new SqliteCardVault(filename, AesGcmKeyring.ofKey(randomBytes(32)));
    expect(other.get('M', 'T1')).toBeUndefined();
  });

  it("after destroy, neither the token's wrapped key nor its sealed number is left in the files", () => {
    const { filename, vault } = open();
    vault.put('M', 'T1', NUMBER);
    const peek = new Database(filename, { readonly: true });
    const row = peek.prepare('SELECT wrapped_key, sealed_number FROM card_vault').get() as {
      wrapped_key: string;
      sealed_number: string;
    };
    peek.close();
    expect(filesOf(filename).includes(row.wrapped_key)).toBe(true);
    vault.destroy('M', 'T1');
    const bytes = filesOf(filename);
    expect(bytes.includes(row.wrapped_key)).toBe(false);
    expect(bytes.includes(row.sealed_number)).toBe(false);
    expect(vault.get('M', 'T1')).toBeUndefined();
  });
});
