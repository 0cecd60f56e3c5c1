import {
  SimulatedAcquirer,
  SimulatedAuthenticationServer,
  type Acquirer,
  type AuthenticationServer,
} from '@gateway/acquirer';
import { SqliteEventStore, type EventStore } from '@gateway/event-store';
import { Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { join } from 'node:path';
import { BasicAuthGuard } from './auth/basic-auth.guard';
import { dataDirKey } from './config/data-dir-key';
import type { GatewayConfig } from './config/gateway.config';
import { PublicUrl } from './config/public-url';
import { DocsHttpController } from './docs/docs.http.controller';
import { MerchantRegistry } from './merchant/merchant-registry';
import { GatewayMetrics } from './ops/gateway-metrics';
import { OpsHttpController } from './ops/ops.http.controller';
import { KeyedMutex } from './order/keyed-mutex';
import { OrderHttpController } from './order/order.http.controller';
import { OrderRepository } from './order/order.repository';
import { RetrieveOrderHandler } from './order/retrieve-order.query';
import { PageTokens } from './payer/page-token';
import { PayerHttpController } from './payer/payer.http.controller';
import { PayerLinks } from './payer/payer-links';
import { PayerTransactionHandler } from './payer/payer-transaction.query';
import { RecordPayerStepHandler } from './payer/record-payer-step.handler';
import { protectionProviders } from './protection/protection.providers';
import { PaymentSessions } from './session/payment-sessions';
import { SessionCipher } from './session/session-cipher';
import { SessionHttpController } from './session/session.http.controller';
import type { SessionStore } from './session/session.store';
import { SqliteSessionStore } from './session/sqlite-session.store';
import {
  ACQUIRER,
  AUTHENTICATION_SERVER,
  CLOCK,
  EVENT_STORE,
  GATEWAY_CONFIG,
  MERCHANT_REGISTRY,
  SESSION_STORE,
  type Clock,
} from './tokens';
import { OperationAnswers } from './transaction/operation-answers';
import { ProcessTransactionHandler } from './transaction/process-transaction.handler';
import { RequestFingerprint } from './transaction/request-fingerprint';
import { TransactionHttpController } from './transaction/transaction.http.controller';

/** Closes the stores last, after in-flight requests finish, so pending group commits are flushed. */
class StoreShutdown implements OnApplicationShutdown {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SESSION_STORE) private readonly sessions: SessionStore,
  ) {}
  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
    this.sessions.close();
  }
}

/**
 * Wires the ports to their adapters: the embedded SQLite stores (events, sessions), the simulated
 * acquirer and 3-D Secure authentication server. Keys live in GATEWAY_DATA_DIR.
 */
@Module({})
export class AppModule {
  static forConfig(config: GatewayConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [CqrsModule.forRoot()],
      controllers: [
        TransactionHttpController,
        OrderHttpController,
        SessionHttpController,
        PayerHttpController,
        DocsHttpController,
        OpsHttpController,
      ],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        {
          provide: EVENT_STORE,
          useFactory: () => SqliteEventStore.open({ filename: join(config.dataDir, 'events.db') }),
        },
        {
          provide: SESSION_STORE,
          useFactory: () =>
            new SqliteSessionStore(
              join(config.dataDir, 'sessions.db'),
              new SessionCipher(dataDirKey(config.dataDir, 'session.key')),
            ),
        },
        {
          provide: GatewayMetrics,
          useFactory: (store: EventStore) => new GatewayMetrics(store),
          inject: [EVENT_STORE],
        },
        {
          provide: OrderRepository,
          useFactory: (store: EventStore, metrics: GatewayMetrics) =>
            new OrderRepository(store, (seconds) => metrics.appendDuration.observe(seconds)),
          inject: [EVENT_STORE, GatewayMetrics],
        },
        { provide: ACQUIRER, useValue: new SimulatedAcquirer() },
        { provide: AUTHENTICATION_SERVER, useValue: new SimulatedAuthenticationServer() },
        {
          provide: MERCHANT_REGISTRY,
          useFactory: () => MerchantRegistry.load(config.merchantsFile),
        },
        { provide: CLOCK, useValue: () => new Date() },
        {
          provide: RequestFingerprint,
          useFactory: () => RequestFingerprint.fromDataDir(config.dataDir),
        },
        { provide: PublicUrl, useValue: new PublicUrl(config.publicUrl) },
        {
          provide: PageTokens,
          useFactory: () => new PageTokens(dataDirKey(config.dataDir, 'page-token.key')),
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
          provide: OperationAnswers,
          useFactory: (
            acquirer: Acquirer,
            authentication: AuthenticationServer,
            links: PayerLinks,
            sessions: PaymentSessions,
          ) => new OperationAnswers(acquirer, authentication, links, sessions),
          inject: [ACQUIRER, AUTHENTICATION_SERVER, PayerLinks, PaymentSessions],
        },
        // One lock per order for the merchant's operations and the payer's steps alike.
        { provide: KeyedMutex, useValue: new KeyedMutex() },
        StoreShutdown,
        ...protectionProviders(config.limits),
        BasicAuthGuard,
        ProcessTransactionHandler,
        RecordPayerStepHandler,
        RetrieveOrderHandler,
        PayerTransactionHandler,
      ],
    };
  }
}
