import { Module, type DynamicModule } from '@nestjs/common';
import { ConsoleController } from './console.controller';
import { OrderPages } from './orders/order-pages';
import { FinanceController } from './finance/finance.controller';
import { FinanceThread } from './finance/finance-thread';
import { ReadModel } from './read-model';
import { ConsoleAuth } from './sessions/console-auth';
import { ConsoleDb } from './sessions/console-db';
import { Deliveries } from './webhooks/deliveries';
import type { GatewayConnection } from './webhooks/gateway-client';
import { GATEWAY_CONNECTION, WebhooksController } from './webhooks/webhooks.controller';

/** The console's one module: its services are made in main.ts and handed in as they are. */
@Module({})
export class ConsoleModule {
  static with(services: {
    auth: ConsoleAuth;
    db: ConsoleDb;
    readModel: ReadModel;
    orderPages: OrderPages;
    finance: FinanceThread;
    deliveries: Deliveries;
    gateway: GatewayConnection;
  }): DynamicModule {
    return {
      module: ConsoleModule,
      controllers: [ConsoleController, FinanceController, WebhooksController],
      providers: [
        { provide: ConsoleAuth, useValue: services.auth },
        { provide: ConsoleDb, useValue: services.db },
        { provide: ReadModel, useValue: services.readModel },
        { provide: OrderPages, useValue: services.orderPages },
        { provide: FinanceThread, useValue: services.finance },
        { provide: Deliveries, useValue: services.deliveries },
        { provide: GATEWAY_CONNECTION, useValue: services.gateway },
      ],
    };
  }
}
