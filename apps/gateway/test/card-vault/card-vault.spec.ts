import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CardVault, vaultSecretId } from '../../src/card-vault/card-vault';
import { openVaultSecrets } from '../../src/card-vault/sqlite-card-vault';
import { AesGcmKeyring } from '../../src/crypto/aes-gcm-keyring';

const NUMBER = '5123450000000008';
const T1 = { merchantId: 'M', token: 'T1', incarnation: 0 };

function open(filename = join(mkdtempSync(join(tmpdir(), 'vault-')), 'vault.db')) {
  const dataKey = AesGcmKeyring.ofKey(randomBytes(32));
  const secrets = openVaultSecrets(filename);
  return { filename, dataKey, secrets, vault: new CardVault(secrets, dataKey) };
}

/** vault.db and any journal beside it, as bytes. */
function filesOf(filename: string): Buffer {
  const beside = [`${filename}-wal`, `${filename}-journal`].filter((file) => existsSync(file));
  return Buffer.concat([filename, ...beside].map((file) => readFileSync(file)));
}

describe('the card vault', () => {
  it('gives back the number of the token (and life) it was kept for, and of no other', async () => {
    const { vault } = open();
    await vault.put(T1, NUMBER);
    expect(await vault.get(T1)).toBe(NUMBER);
    expect(await vault.get({ ...T1, token: 'T2' })).toBeUndefined();
    expect(await vault.get({ ...T1, merchantId: 'OTHER' })).toBeUndefined();
    expect(await vault.get({ ...T1, incarnation: 1 })).toBeUndefined();
  });

  it('keeps no number in clear in its files', async () => {
    const { filename, vault } = open();
    await vault.put(T1, NUMBER);
    expect(filesOf(filename).includes(NUMBER)).toBe(false);
  });

  it("needs the data key: another data key cannot open the token's key", async () => {
    const { secrets, vault } = open();
    await vault.put(T1, NUMBER);
    const other = new CardVault(secrets, AesGcmKeyring.ofKey(randomBytes(32)));
    expect(await other.get(T1)).toBeUndefined();
  });

  it("after destroy, neither the token's wrapped key nor its sealed number is left in the files", async () => {
    const { filename, secrets, vault } = open();
    await vault.put(T1, NUMBER);
    const [wrapped, sealed] = (await secrets.get(vaultSecretId(T1)))!.split(' ');
    expect(filesOf(filename).includes(wrapped)).toBe(true);
    await vault.destroy(T1);
    const bytes = filesOf(filename);
    expect(bytes.includes(wrapped)).toBe(false);
    expect(bytes.includes(sealed)).toBe(false);
    expect(await vault.get(T1)).toBeUndefined();
  });

  it('opens the rows vault.db kept in its card_vault table before the secret store', async () => {
    const { filename, dataKey, secrets, vault } = open();
    await vault.put(T1, NUMBER);
    const [wrapped, sealed] = (await secrets.get(vaultSecretId(T1)))!.split(' ');
    await secrets.close();
    const db = new Database(filename);
    db.exec(`DROP TABLE secrets;
      CREATE TABLE card_vault (merchant_id TEXT, token TEXT, wrapped_key TEXT, sealed_number TEXT)`);
    db.prepare('INSERT INTO card_vault VALUES (?, ?, ?, ?)').run('M', 'T1', wrapped, sealed);
    db.close();
    const reopened = new CardVault(openVaultSecrets(filename), dataKey);
    expect(await reopened.get(T1)).toBe(NUMBER);
  });
});
