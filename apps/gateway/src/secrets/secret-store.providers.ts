import { openingDatabaseFile } from '@gateway/database-files';
import type { OnApplicationShutdown, Provider } from '@nestjs/common';
import { join } from 'node:path';
import { openVaultSecrets } from '../card-vault/sqlite-card-vault';
import type { GatewayConfig } from '../config/gateway.config';
import { KurrentDbSecretStore } from './kurrentdb-secret-store';
import type { SecretStore } from './secret-store';

/** The secret store (secret-store.ts) the card vault and, on a cluster, sessions' data keys use. */
export const SECRET_STORE = Symbol('SecretStore');

/** Closes the secret store when the application stops. */
class SecretStoreShutdown implements OnApplicationShutdown {
  constructor(private readonly secrets: SecretStore) {}
  onApplicationShutdown(): Promise<void> {
    return this.secrets.close();
  }
}

/**
 * On KurrentDB, the server every node shares (docs/secrets.md); otherwise vault.db in the data
 * directory, as before the secret store.
 */
export function secretStoreProviders(config: GatewayConfig): Provider[] {
  const { eventStore } = config;
  return [
    {
      provide: SECRET_STORE,
      useFactory: (): SecretStore | Promise<SecretStore> => {
        if (eventStore.kind === 'kurrentdb')
          return new KurrentDbSecretStore({ connectionString: eventStore.connectionString });
        const filename = join(config.dataDir, 'vault.db');
        return openingDatabaseFile(filename, () => openVaultSecrets(filename));
      },
    },
    {
      provide: SecretStoreShutdown,
      useFactory: (secrets: SecretStore) => new SecretStoreShutdown(secrets),
      inject: [SECRET_STORE],
    },
  ];
}
