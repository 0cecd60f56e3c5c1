import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Server } from 'node:http';
import type { LoadShedder } from '../protection/load-shedder';
import type { GatewayLogger } from '@gateway/logging';

/**
 * SIGTERM or SIGINT: new requests are refused (503 SERVER_BUSY, readiness DOWN) and in-flight
 * ones finish; then app.close() closes the HTTP server and runs the shutdown hooks, which flush
 * the group commit and close the stores (and whatever else other slices registered). Connections
 * still busy after the grace period are cut, so that the rest of the shutdown still happens: a
 * request cut there never got its 201, so nothing promised is lost. SIGKILL remains the way to
 * stop at once; a 201 survives that too.
 */
export function closeOnSignals(
  app: NestFastifyApplication,
  shedder: LoadShedder,
  graceSeconds: number,
  logger: GatewayLogger,
): void {
  shutDownOnSignals(logger, async (signal) => {
    logger.info({ signal, inFlight: shedder.requestsInFlight }, 'shutting down');
    shedder.drain();
    const grace = setTimeout(() => {
      logger.warn(
        { inFlight: shedder.requestsInFlight, graceSeconds },
        'grace period over: closing the remaining connections',
      );
      (app.getHttpServer() as Server).closeAllConnections();
    }, graceSeconds * 1000);
    try {
      await app.close();
    } finally {
      clearTimeout(grace);
    }
  });
}

/**
 * On the first SIGTERM or SIGINT, runs `shutdown`, then exits (0, or 1 when it failed). A repeated
 * signal (an impatient second Ctrl-C) is only logged: it must not kill the process mid-flush.
 */
export function shutDownOnSignals(
  logger: GatewayLogger,
  shutdown: (signal: NodeJS.Signals) => Promise<void>,
): void {
  let closing = false;
  const close = (signal: NodeJS.Signals) => {
    if (closing) return logger.info({ signal }, 'already shutting down');
    closing = true;
    shutdown(signal).then(
      () => {
        logger.info('shut down');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ error: (error as Error).message }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => close(signal));
}
