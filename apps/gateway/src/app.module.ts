import {
  SimulatedAcquirer,
  SimulatedAuthenticationServer,
  SimulatedCurrencyConversion,
  type Acquirer,
  type AuthenticationServer,
  type CurrencyConversion,
} from '@gateway/acquirer';
import { openingDatabaseFile } from '@gateway/database-files';
import { createEventStore, type EventStore } from '@gateway/event-store';
import { Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { join } from 'node:path';
import { BasicAuthGuard } from './auth/basic-auth.guard';
import {
  dataKeyring,
  keyOf,
  loadDataDirKeys,
  type DataDirKeys,
  type KeyRole,
} from './config/data-dir-keys';
import { loadKeysFile } from './config/keys-file';
import type { GatewayConfig } from './config/gateway.config';
import { createLogger, type GatewayLogger } from '@gateway/logging';
import { PublicUrl } from './config/public-url';
import { DocsHttpController } from './docs/docs.http.controller';
import { MerchantRegistry } from '@gateway/merchants';
import { observeConsumers } from './ops/consumers.metrics';
import { GatewayMetrics } from './ops/gateway-metrics';
import { metricsTextProvider } from './ops/metrics-text';
import type { PrimaryLink } from './workers/primary-link';
import { workerProviders } from './workers/worker.providers';
import { OpsHttpController } from './ops/ops.http.controller';
import { Agreements } from './agreements/agreements';
import { AcquirerFactRecorder } from './acquirer-facts/acquirer-fact.recorder';
import { GatewayClock } from './clock/gateway-clock';
import { KeyedMutex } from './order/keyed-mutex';
import { OperatorGuard } from './operator/operator.guard';
import { AcquirerOperatorHttpController } from './operator/acquirer-operator.http.controller';
import { ClockHttpController } from './operator/clock.http.controller';
import { WebhookOperatorHttpController } from './operator/webhook-operator.http.controller';
import { janitorProviders } from './janitor/janitor.providers';
import { ListOrdersHandler } from './order/list-orders.query';
import { OrderListHttpController } from './order/order-list.http.controller';
import { OrderEventFeed } from './order-events/order-event.feed';
import { OrderEventsHttpController } from './order-events/order-events.http.controller';
import { OrderHttpController } from './order/order.http.controller';
import { OrderSizeLimit } from './order/order-size-limit';
import { OrderRepository } from './order/order.repository';
import { RetrieveOrderHandler } from './order/retrieve-order.query';
import { PageTokens } from './payer/page-token';
import { PayerHttpController } from './payer/payer.http.controller';
import { PayerLinks } from './payer/payer-links';
import { PayerTransactionHandler } from './payer/payer-transaction.query';
import { RecordPayerStepHandler } from './payer/record-payer-step.handler';
import { OperationPipeline } from './operations/pipeline';
import { CheckGatewayHttpController } from './information/check-gateway.http.controller';
import { PaymentOptionsHttpController } from './payment-options/payment-options.http.controller';
import { protectionProviders } from './protection/protection.providers';
import { PaymentSessions } from './session/payment-sessions';
import { AesGcmKeyring } from './crypto/aes-gcm-keyring';
import { SessionHttpController } from './session/session.http.controller';
import type { SessionStore } from './session/session.store';
import { SqliteSessionStore } from './session/sqlite-session.store';
import { EventStoreSessionStore } from './session/event-store-session.store';
import type { SecretStore } from './secrets/secret-store';
import { SECRET_STORE, secretStoreProviders } from './secrets/secret-store.providers';
import {
  ACQUIRER,
  AUTHENTICATION_SERVER,
  CLOCK,
  CURRENCY_CONVERSION,
  DATA_DIR_KEYS,
  EVENT_STORE,
  GATEWAY_CONFIG,
  LOGGER,
  MERCHANT_REGISTRY,
  SESSION_STORE,
  type Clock,
} from './tokens';
import { ProcessTransactionHandler } from './transaction/process-transaction.handler';
import { RequestFingerprint } from './transaction/request-fingerprint';
import { SensitiveData } from './transaction/sensitive-data';
import { TransactionHttpController } from './transaction/transaction.http.controller';
import { WebhookDeliveryHttpController } from './webhook/webhook-delivery.http.controller';
import { consumersProviders } from './consumers/consumers.providers';
import { cardVaultProviders } from './card-vault/card-vault.providers';
import { TokenHttpController } from './card-vault/token.http.controller';
import { QuoteIds } from './currency-conversion/quote-ids';
import { QuoteUptake } from './currency-conversion/quote-uptake';
import { CheckoutHttpController } from './checkout/checkout.http.controller';
import { CheckoutScriptHttpController } from './checkout/checkout-script.http.controller';
import { checkoutProviders } from './checkout/checkout.providers';
import { SettlementHttpController } from './settlement/settlement.http.controller';
import { settlementProviders } from './settlement/settlement.providers';

/** Closes the stores last, after in-flight requests finish, so pending group commits are flushed. */
class StoreShutdown implements OnApplicationShutdown {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SESSION_STORE) private readonly sessions: SessionStore,
  ) {}
  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
    await this.sessions.close();
  }
}

/** The data directory's keys this configuration uses: bank data's only without GATEWAY_DATA_KEYS. */
function keyRolesFor(config: GatewayConfig): KeyRole[] {
  const roles: KeyRole[] = ['session', 'requestFingerprint', 'cardFingerprint', 'pageToken'];
  return config.dataKeys ? roles : [...roles, 'bankData'];
}

/**
 * Wires the ports to their adapters: the event store named by configuration (embedded SQLite by
 * default, or KurrentDB), the embedded SQLite session store, the simulated
 * acquirer and 3-D Secure authentication server. Keys live in GATEWAY_DATA_DIR.
 */
@Module({})
export class AppModule {
  static forConfig(
    config: GatewayConfig,
    logger: GatewayLogger = createLogger(config.logLevel),
    /** In a request process of several (GATEWAY_WORKERS): its link to the primary's writer. */
    primary?: PrimaryLink,
  ): DynamicModule {
    const clock = new GatewayClock(config.acquirerLater.clock);
    return {
      module: AppModule,
      imports: [CqrsModule.forRoot()],
      controllers: [
        TransactionHttpController,
        OrderHttpController,
        OrderListHttpController,
        SessionHttpController,
        PayerHttpController,
        DocsHttpController,
        OpsHttpController,
        WebhookDeliveryHttpController,
        SettlementHttpController,
        OrderEventsHttpController,
        CheckGatewayHttpController,
        PaymentOptionsHttpController,
        TokenHttpController,
        CheckoutHttpController,
        CheckoutScriptHttpController,
        AcquirerOperatorHttpController,
        ClockHttpController,
        WebhookOperatorHttpController,
      ],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        { provide: LOGGER, useValue: logger },
        OperatorGuard,
        {
          provide: EVENT_STORE,
          useFactory: () => {
            if (config.eventStore.kind === 'kurrentdb') return createEventStore(config.eventStore);
            const filename = join(config.dataDir, 'events.db');
            return openingDatabaseFile(filename, () =>
              createEventStore({
                kind: 'sqlite',
                filename,
                onWritableChange: (writable, code) =>
                  writable
                    ? logger.info('event store writable again')
                    : logger.error(
                        { code },
                        'event store cannot write: appends answer 503 and the gateway is not ready until a write succeeds',
                      ),
              }),
            );
          },
        },
        // Read once the event store is open: whether it holds events decides if a key may be made.
        // A keys file, when given, is the only source: nothing is read or made in the data dir.
        {
          provide: DATA_DIR_KEYS,
          useFactory: (store: EventStore) =>
            config.keysFile
              ? loadKeysFile(config.keysFile, keyRolesFor(config))
              : loadDataDirKeys(
                  config.dataDir,
                  keyRolesFor(config),
                  async () => (await store.headPosition()) === undefined,
                ),
          inject: [EVENT_STORE],
        },
        {
          provide: SESSION_STORE,
          useFactory: async (keys: DataDirKeys, store: EventStore, secrets: SecretStore) => {
            const filename = join(config.dataDir, 'sessions.db');
            const keyring = AesGcmKeyring.ofKey(keyOf(keys, 'session'));
            // On a cluster every node serves every step: sessions live in the event store.
            if (config.eventStore.kind === 'kurrentdb')
              return new EventStoreSessionStore(store, secrets, keyring);
            return openingDatabaseFile(filename, () => new SqliteSessionStore(filename, keyring));
          },
          inject: [DATA_DIR_KEYS, EVENT_STORE, SECRET_STORE],
        },
        ...secretStoreProviders(config),
        {
          provide: GatewayMetrics,
          useFactory: (store: EventStore) => {
            const metrics = new GatewayMetrics(store);
            observeConsumers(metrics.registry, config.consumers);
            return metrics;
          },
          inject: [EVENT_STORE],
        },
        {
          provide: OrderRepository,
          useFactory: (store: EventStore, metrics: GatewayMetrics) =>
            OrderRepository.open(
              store,
              (seconds) => metrics.appendDuration.observe(seconds),
              config.orders.cachedEvents,
            ),
          inject: [EVENT_STORE, GatewayMetrics],
        },
        { provide: ACQUIRER, useValue: new SimulatedAcquirer() },
        { provide: AUTHENTICATION_SERVER, useValue: new SimulatedAuthenticationServer() },
        { provide: CURRENCY_CONVERSION, useValue: new SimulatedCurrencyConversion() },
        {
          provide: QuoteUptake,
          useFactory: (conversion: CurrencyConversion, keys: DataDirKeys, store: EventStore) =>
            new QuoteUptake(conversion, new QuoteIds(keyOf(keys, 'cardFingerprint')), store),
          inject: [CURRENCY_CONVERSION, DATA_DIR_KEYS, EVENT_STORE],
        },
        {
          provide: MERCHANT_REGISTRY,
          useFactory: () => MerchantRegistry.load(config.merchantsFile),
        },
        { provide: GatewayClock, useValue: clock },
        { provide: CLOCK, useValue: () => clock.now() },
        {
          provide: RequestFingerprint,
          useFactory: (keys: DataDirKeys) =>
            new RequestFingerprint(keyOf(keys, 'requestFingerprint')),
          inject: [DATA_DIR_KEYS],
        },
        { provide: PublicUrl, useValue: new PublicUrl(config.publicUrl) },
        {
          provide: SensitiveData,
          useFactory: (keys: DataDirKeys) =>
            new SensitiveData(keyOf(keys, 'cardFingerprint'), dataKeyring(config, keys)),
          inject: [DATA_DIR_KEYS],
        },
        {
          provide: PageTokens,
          useFactory: (keys: DataDirKeys) => new PageTokens(keyOf(keys, 'pageToken')),
          inject: [DATA_DIR_KEYS],
        },
        {
          provide: PayerLinks,
          useFactory: (url: PublicUrl, tokens: PageTokens) => new PayerLinks(url, tokens),
          inject: [PublicUrl, PageTokens],
        },
        {
          provide: PaymentSessions,
          useFactory: (store: SessionStore, clock: Clock) =>
            new PaymentSessions(store, clock, config.sessionTtlSeconds),
          inject: [SESSION_STORE, CLOCK],
        },
        {
          provide: OperationPipeline,
          useFactory: (
            orders: OrderRepository,
            locks: KeyedMutex,
            acquirer: Acquirer,
            authentication: AuthenticationServer,
            links: PayerLinks,
            sessions: PaymentSessions,
          ) => new OperationPipeline(orders, locks, { acquirer, authentication, links, sessions }),
          inject: [
            OrderRepository,
            KeyedMutex,
            ACQUIRER,
            AUTHENTICATION_SERVER,
            PayerLinks,
            PaymentSessions,
          ],
        },
        {
          provide: AcquirerFactRecorder,
          useFactory: (orders: OrderRepository, locks: KeyedMutex) =>
            new AcquirerFactRecorder(orders, locks),
          inject: [OrderRepository, KeyedMutex],
        },
        // One lock per order for the merchant's operations and the payer's steps alike, and the acquirer's facts.
        { provide: KeyedMutex, useValue: new KeyedMutex() },
        {
          provide: Agreements,
          useFactory: (store: EventStore, locks: KeyedMutex, orders: OrderRepository) =>
            new Agreements(store, locks, orders),
          inject: [EVENT_STORE, KeyedMutex, OrderRepository],
        },
        { provide: OrderSizeLimit, useValue: new OrderSizeLimit(config.orders.maxTransactions) },
        StoreShutdown,
        OrderEventFeed,
        ...protectionProviders(config.limits),
        BasicAuthGuard,
        ProcessTransactionHandler,
        RecordPayerStepHandler,
        RetrieveOrderHandler,
        ListOrdersHandler,
        PayerTransactionHandler,
        ...consumersProviders(config),
        ...cardVaultProviders(config),
        ...checkoutProviders(),
        ...settlementProviders(config, !primary),
        metricsTextProvider,
        // The janitor runs where the writer is: not in a request process of several.
        ...(primary ? [] : janitorProviders(config)),
        // Last: they take the place of the providers above of the same tokens.
        ...(primary ? workerProviders(config, primary) : []),
      ],
    };
  }
}
