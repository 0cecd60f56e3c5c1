import { SqliteSecretStore } from '../secrets/sqlite-secret-store';

/**
 * The secret store of one node's card vault: GATEWAY_DATA_DIR/vault.db. Its rows were once kept
 * in a table of their own (card_vault: merchant, token, wrapped key, sealed number); those move
 * into the secrets table on first open, as the first life of their token, and the old table is
 * dropped (secure_delete zeroes its pages).
 */
export function openVaultSecrets(filename: string): SqliteSecretStore {
  const secrets = new SqliteSecretStore(filename);
  const db = secrets.database;
  const old = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'card_vault'")
    .get();
  if (old)
    db.transaction(() => {
      db.exec(`INSERT OR IGNORE INTO secrets (id, secret)
        SELECT 'card:' || merchant_id || ':' || token || ':0', wrapped_key || ' ' || sealed_number
        FROM card_vault;
        DROP TABLE card_vault;`);
    })();
  return secrets;
}
