import type { Acquirer } from '@gateway/acquirer';
import type { EventStore } from '@gateway/event-store';
import type { OnApplicationShutdown, Provider } from '@nestjs/common';
import { join } from 'node:path';
import { dataKeyring, type DataDirKeys } from '../config/data-dir-keys';
import type { GatewayConfig } from '../config/gateway.config';
import { KeyedMutex } from '../order/keyed-mutex';
import { PaymentSessions } from '../session/payment-sessions';
import { ACQUIRER, CLOCK, DATA_DIR_KEYS, EVENT_STORE, type Clock } from '../tokens';
import { SensitiveData } from '../transaction/sensitive-data';
import { openingDatabaseFile } from '@gateway/database-files';
import { CardTokens } from './card-tokens';
import { SqliteCardVault } from './sqlite-card-vault';

/** Closes vault.db when the application stops. */
class VaultShutdown implements OnApplicationShutdown {
  constructor(private readonly vault: SqliteCardVault) {}
  onApplicationShutdown(): void {
    this.vault.close();
  }
}

/** The card vault (GATEWAY_DATA_DIR/vault.db) and the card tokens kept with it. */
export function cardVaultProviders(config: GatewayConfig): Provider[] {
  return [
    {
      provide: SqliteCardVault,
      useFactory: (keys: DataDirKeys) => {
        const filename = join(config.dataDir, 'vault.db');
        const keyring = dataKeyring(config, keys);
        return openingDatabaseFile(filename, () => new SqliteCardVault(filename, keyring));
      },
      inject: [DATA_DIR_KEYS],
    },
    {
      provide: CardTokens,
      useFactory: (
        store: EventStore,
        acquirer: Acquirer,
        vault: SqliteCardVault,
        sensitive: SensitiveData,
        sessions: PaymentSessions,
        locks: KeyedMutex,
        clock: Clock,
      ) => new CardTokens(store, acquirer, vault, sensitive, sessions, locks, clock),
      inject: [
        EVENT_STORE,
        ACQUIRER,
        SqliteCardVault,
        SensitiveData,
        PaymentSessions,
        KeyedMutex,
        CLOCK,
      ],
    },
    {
      provide: VaultShutdown,
      useFactory: (vault: SqliteCardVault) => new VaultShutdown(vault),
      inject: [SqliteCardVault],
    },
  ];
}
