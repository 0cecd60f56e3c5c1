import 'reflect-metadata';
import { ApiError } from '@gateway/contract';
import { DatabaseFileError } from '@gateway/database-files';
import { NestFactory } from '@nestjs/core';
import { mkdirSync } from 'node:fs';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import cluster from 'node:cluster';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppModule } from './app.module';
import { endConsumersThreads } from './consumers/consumers.host';
import { ConfigError } from '@gateway/config';
import { loadConfig, type GatewayConfig } from './config/gateway.config';
import { KeyFileError } from './config/key-file';
import type { TlsFiles } from './config/security.config';
import { ApiExceptionFilter } from './http/api-exception.filter';
import { answerClientError } from './http/client-error.handler';
import { boundConnections } from './http/connection-bounds';
import { emptyBodyIsEmptyObject } from './http/empty-body';
import { configureFastify } from './http/fastify-setup';
import { PublicUrl } from './config/public-url';
import {
  MerchantFileError,
  type MerchantRegistry,
  reloadMerchantsOnHangup,
} from '@gateway/merchants';
import { MERCHANT_REGISTRY } from './tokens';
import { GatewayMetrics } from './ops/gateway-metrics';
import { closeOnSignals } from './ops/graceful-shutdown';
import { createLogger, NestLogBridge, type GatewayLogger } from '@gateway/logging';
import { observeRequests, requestId } from './ops/request-observer';
import { LoadShedder } from './protection/load-shedder';
import { RequestAdmission } from './protection/request-admission';
import { shedLoad } from './protection/shed-load.hook';
import { PrimaryLink } from './workers/primary-link';
import { runPrimary } from './workers/primary';

export async function createGateway(
  config: GatewayConfig,
  logger: GatewayLogger = createLogger(config.logLevel),
  /** In a request process of several (GATEWAY_WORKERS): its link to the primary. */
  primary?: PrimaryLink,
): Promise<NestFastifyApplication> {
  // Every store and key lives in the data directory: made once here, before any of them opens.
  mkdirSync(config.dataDir, { recursive: true });
  // Payer page tokens name merchant, order and transaction (40 characters each at most) and are
  // longer than Fastify's default limit of 100 characters for a path parameter.
  const adapter = new FastifyAdapter({
    // Fastify's own logger stays off: it would write two lines per request, through a child
    // logger made for each; observeRequests writes one (ops/request-observer.ts).
    logger: false,
    genReqId: requestId,
    // Payer-page tokens are longer than Fastify's default 100-character path parameters.
    routerOptions: { maxParamLength: 1024 },
    ...(config.tls ? { https: httpsOptions(config.tls) } : {}),
    // Errors Fastify raises before routing (a malformed URL) get the spec's error object too.
    frameworkErrors: (_error: Error, _request: FastifyRequest, reply: FastifyReply) => {
      const error = ApiError.invalid('The request URL is not valid');
      void reply.status(error.httpStatus).send(error.body);
    },
    // Requests Node's HTTP parser refuses get the spec's error object too.
    clientErrorHandler: answerClientError,
    // Requests arriving while closing get the spec's 503 from shedLoad, not Fastify's own body.
    return503OnClosing: false,
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forConfig(config, logger, primary),
    adapter,
    {
      logger: new NestLogBridge(logger),
      abortOnError: false,
      bodyParser: false,
    },
  );
  const fastify = app.getHttpAdapter().getInstance();
  configureFastify(fastify, config.bodyLimit);
  emptyBodyIsEmptyObject(fastify);
  const metrics = app.get(GatewayMetrics);
  observeRequests(fastify, logger, metrics);
  boundConnections(app.getHttpServer(), config.connections, () => metrics.connectionsRefused.inc());
  shedLoad(fastify, app.get(LoadShedder), app.get(RequestAdmission), (reason) =>
    metrics.refusals.inc({ reason }),
  );
  app.useGlobalFilters(new ApiExceptionFilter(logger));
  return app;
}

/**
 * With a client CA, every handshake asks for a certificate but lets one without (or with an
 * untrusted one) through: such a client may still use Basic authentication, and the guard decides.
 */
function httpsOptions(tls: TlsFiles) {
  return {
    cert: tls.cert,
    key: tls.key,
    ...(tls.clientCa ? { ca: tls.clientCa, requestCert: true, rejectUnauthorized: false } : {}),
  };
}

async function main(): Promise<void> {
  const config = loadConfig();
  // Several request processes (docs/workers.md): this is the primary, or one of them.
  if (config.workers > 1 && cluster.isPrimary)
    return runPrimary(config, createLogger(config.logLevel));
  const primary = config.workers > 1 ? new PrimaryLink(process) : undefined;
  const logger = primary
    ? createLogger(config.logLevel).child({ worker: cluster.worker?.id, pid: process.pid })
    : createLogger(config.logLevel);
  // The primary gone (killed): appends can no longer be made durable, so stop at once.
  if (primary) process.once('disconnect', () => process.exit(1));
  const app = await createGateway(config, logger, primary);
  await app.listen({ port: config.port, host: config.host });
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const scheme = config.tls ? 'https' : 'http';
  app.get(PublicUrl).listeningAt(`${scheme}://${host}:${port}`);
  const url = `${scheme}://${config.host}:${port}`;
  // Tests and scripts read this line to find the port when PORT=0 (the primary prints it for all).
  if (primary) primary.listening(url);
  else console.log(`gateway listening on ${url} (data: ${config.dataDir})`);
  reloadMerchantsOnHangup(app.get<MerchantRegistry>(MERCHANT_REGISTRY), config.merchantsFile);
  closeOnSignals(app, app.get(LoadShedder), config.shutdownGraceSeconds, logger);
}

if (require.main === module) {
  main().catch(async (error: unknown) => {
    const known =
      error instanceof ConfigError ||
      error instanceof MerchantFileError ||
      error instanceof KeyFileError ||
      error instanceof DatabaseFileError;
    console.error(
      known ? error.message : `gateway failed to start: ${(error as Error).message ?? error}`,
    );
    await endConsumersThreads();
    process.exit(1);
  });
}
