import type { Acquirer } from '@gateway/acquirer';
import type { EventStore } from '@gateway/event-store';
import type { Provider } from '@nestjs/common';
import { dataKeyring, type DataDirKeys } from '../config/data-dir-keys';
import type { GatewayConfig } from '../config/gateway.config';
import { KeyedMutex } from '../order/keyed-mutex';
import { PaymentSessions } from '../session/payment-sessions';
import { ACQUIRER, CLOCK, DATA_DIR_KEYS, EVENT_STORE, type Clock } from '../tokens';
import { SensitiveData } from '../transaction/sensitive-data';
import { SECRET_STORE } from '../secrets/secret-store.providers';
import type { SecretStore } from '../secrets/secret-store';
import { CardTokens } from './card-tokens';
import { CardVault } from './card-vault';

/** The card vault (in the secret store) and the card tokens kept with it. */
export function cardVaultProviders(config: GatewayConfig): Provider[] {
  return [
    {
      provide: CardVault,
      useFactory: (secrets: SecretStore, keys: DataDirKeys) =>
        new CardVault(secrets, dataKeyring(config, keys)),
      inject: [SECRET_STORE, DATA_DIR_KEYS],
    },
    {
      provide: CardTokens,
      useFactory: (
        store: EventStore,
        acquirer: Acquirer,
        vault: CardVault,
        sensitive: SensitiveData,
        sessions: PaymentSessions,
        locks: KeyedMutex,
        clock: Clock,
      ) => new CardTokens(store, acquirer, vault, sensitive, sessions, locks, clock),
      inject: [EVENT_STORE, ACQUIRER, CardVault, SensitiveData, PaymentSessions, KeyedMutex, CLOCK],
    },
  ];
}
