import type { MerchantRegistry } from '@gateway/merchants';
import type { Provider } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { keyOf, type DataDirKeys } from '../config/data-dir-keys';
import { PaymentSessions } from '../session/payment-sessions';
import type { SessionStore } from '../session/session.store';
import { CLOCK, DATA_DIR_KEYS, MERCHANT_REGISTRY, SESSION_STORE, type Clock } from '../tokens';
import { RequestFingerprint } from '../transaction/request-fingerprint';
import { SensitiveData } from '../transaction/sensitive-data';
import { CardTokens } from '../card-vault/card-tokens';
import { PublicUrl } from '../config/public-url';
import { CheckoutAuthentication } from './checkout-authentication';
import { CheckoutPayments } from './checkout-payment';
import { CheckoutSessions } from './checkout-sessions';

/**
 * Hosted Checkout's services. The successIndicator is keyed by the page-token key: both are the
 * gateway's word to the payer's browser, and the two inputs cannot be confused (checkout-sessions.ts).
 */
export function checkoutProviders(): Provider[] {
  return [
    {
      provide: CheckoutSessions,
      useFactory: (
        sessions: PaymentSessions,
        store: SessionStore,
        clock: Clock,
        keys: DataDirKeys,
      ) => new CheckoutSessions(sessions, store, clock, keyOf(keys, 'pageToken')),
      inject: [PaymentSessions, SESSION_STORE, CLOCK, DATA_DIR_KEYS],
    },
    {
      provide: CheckoutPayments,
      useFactory: (
        commands: CommandBus,
        merchants: MerchantRegistry,
        fingerprint: RequestFingerprint,
        sensitive: SensitiveData,
        cards: CardTokens,
      ) => new CheckoutPayments(commands, merchants, fingerprint, sensitive, cards),
      inject: [CommandBus, MERCHANT_REGISTRY, RequestFingerprint, SensitiveData, CardTokens],
    },
    {
      provide: CheckoutAuthentication,
      useFactory: (payments: CheckoutPayments, url: PublicUrl) =>
        new CheckoutAuthentication(payments, url),
      inject: [CheckoutPayments, PublicUrl],
    },
  ];
}
