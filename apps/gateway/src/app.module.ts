import { SimulatedAcquirer } from '@gateway/acquirer';
import { SqliteEventStore, type EventStore } from '@gateway/event-store';
import { Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { join } from 'node:path';
import { BasicAuthGuard } from './auth/basic-auth.guard';
import { DocsHttpController } from './docs/docs.http.controller';
import type { GatewayConfig } from './config/gateway.config';
import { MerchantRegistry } from './merchant/merchant-registry';
import { OrderHttpController } from './order/order.http.controller';
import { OrderRepository } from './order/order.repository';
import { RetrieveOrderHandler } from './order/retrieve-order.query';
import { ACQUIRER, CLOCK, EVENT_STORE, GATEWAY_CONFIG, MERCHANT_REGISTRY } from './tokens';
import { ProcessTransactionHandler } from './transaction/process-transaction.handler';
import { RequestFingerprint } from './transaction/request-fingerprint';
import { TransactionHttpController } from './transaction/transaction.http.controller';

/** Closes the event store last, after in-flight requests finish, so pending group commits are flushed. */
class EventStoreShutdown implements OnApplicationShutdown {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}
  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}

/** Wires the ports to their adapters: the embedded SQLite store and the simulated acquirer. */
@Module({})
export class AppModule {
  static forConfig(config: GatewayConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [CqrsModule.forRoot()],
      controllers: [TransactionHttpController, OrderHttpController, DocsHttpController],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        {
          provide: EVENT_STORE,
          useFactory: () => SqliteEventStore.open({ filename: join(config.dataDir, 'events.db') }),
        },
        {
          provide: OrderRepository,
          useFactory: (store: EventStore) => new OrderRepository(store),
          inject: [EVENT_STORE],
        },
        { provide: ACQUIRER, useValue: new SimulatedAcquirer() },
        {
          provide: MERCHANT_REGISTRY,
          useFactory: () => MerchantRegistry.load(config.merchantsFile),
        },
        { provide: CLOCK, useValue: () => new Date() },
        {
          provide: RequestFingerprint,
          useFactory: () => RequestFingerprint.fromDataDir(config.dataDir),
        },
        EventStoreShutdown,
        BasicAuthGuard,
        ProcessTransactionHandler,
        RetrieveOrderHandler,
      ],
    };
  }
}
