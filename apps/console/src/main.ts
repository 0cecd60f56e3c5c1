import 'reflect-metadata';
import { ConfigError } from '@gateway/config';
import {
  AuthLockout,
  MerchantFileError,
  MerchantRegistry,
  reloadMerchantsOnHangup,
} from '@gateway/merchants';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { readFileSync } from 'node:fs';
import { loadConsoleConfig, type ConsoleConfig } from './console.config';
import { ConsoleModule } from './console.module';
import { PageErrorsFilter } from './http/page-errors.filter';
import { formBodies, securityHeaders } from './http/security-headers';
import { OrderHistory } from './orders/order-history';
import { OrderPages } from './orders/order-pages';
import { FinanceThread } from './finance/finance-thread';
import { ReadModel } from './read-model';
import { ConsoleAuth } from './sessions/console-auth';
import { ConsoleDb } from './sessions/console-db';
import { ConsoleUsers, UsersFileError } from './users/console-users';
import { Deliveries } from './webhooks/deliveries';

/** The console as a Nest application on Fastify, not listening yet; close() closes its files. */
export async function createConsole(config: ConsoleConfig): Promise<NestFastifyApplication> {
  const users = new ConsoleUsers(config.usersFile);
  const db = new ConsoleDb(config.consoleDb);
  const readModel = new ReadModel(config.dataDir);
  const merchants = MerchantRegistry.load(config.merchantsFile);
  reloadMerchantsOnHangup(merchants, config.merchantsFile);
  const deliveries = new Deliveries(config.webhooks, config.eventStore);
  const orderPages = new OrderPages(
    new OrderHistory(config.dataDir, config.eventStore),
    merchants,
    deliveries,
  );
  const finance = new FinanceThread(config.dataDir, config.settlementDir);
  const auth = new ConsoleAuth(db, users, new AuthLockout(config.lockout), !!config.tls);
  const adapter = new FastifyAdapter({
    logger: false,
    ...(config.tls
      ? { https: { cert: readFileSync(config.tls.cert), key: readFileSync(config.tls.key) } }
      : {}),
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    ConsoleModule.with({
      auth,
      db,
      readModel,
      orderPages,
      finance,
      deliveries,
      gateway: config.webhooks.gateway,
    }),
    adapter,
    { logger: ['error', 'warn'], bodyParser: false, abortOnError: false },
  );
  const fastify = app.getHttpAdapter().getInstance();
  formBodies(fastify);
  securityHeaders(fastify);
  app.useGlobalFilters(new PageErrorsFilter());
  fastify.addHook('onClose', async () => {
    readModel.close();
    await deliveries.close();
    await orderPages.close();
    await finance.close();
    db.close();
  });
  return app;
}

async function main(): Promise<void> {
  const config = loadConsoleConfig();
  const app = await createConsole(config);
  await app.listen(config.port, config.host);
  const { port } = app.getHttpServer().address() as { port: number };
  const scheme = config.tls ? 'https' : 'http';
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  console.log(`console listening on ${scheme}://${host}:${port}/ (data: ${config.dataDir})`);
  let closing = false;
  const close = () => {
    if (closing) return;
    closing = true;
    void app.close().then(() => process.exit(0));
  };
  process.on('SIGTERM', close);
  process.on('SIGINT', close);
}

if (require.main === module) {
  main().catch((error: Error) => {
    const known =
      error instanceof ConfigError ||
      error instanceof UsersFileError ||
      error instanceof MerchantFileError;
    console.error(known ? error.message : `console failed to start: ${error.stack}`);
    process.exit(1);
  });
}
