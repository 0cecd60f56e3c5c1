import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface DispatcherHealth {
  readonly status: 'up' | 'stopping';
  readonly pendingDeliveries: number;
  /** With GATEWAY_WEBHOOK_STORE=event-store: the Kafka partitions whose deliveries it sends. */
  readonly partitions?: readonly number[];
}

/**
 * /metrics (Prometheus) and /health of the standalone dispatcher, on loopback only: plain node
 * http, as a metrics scrape and a liveness probe need nothing more. /health answers 503 once the
 * dispatcher is stopping.
 */
export class DispatcherOpsServer {
  private readonly server: Server;

  constructor(
    private readonly registry: Registry,
    private readonly health: () => DispatcherHealth,
  ) {
    this.server = createServer((request, response) => {
      const path = (request.url ?? '/').split('?')[0];
      if (request.method !== 'GET') return void response.writeHead(405).end();
      if (path === '/metrics') {
        void this.registry.metrics().then(
          (text) =>
            response.writeHead(200, { 'content-type': this.registry.contentType }).end(text),
          () => response.writeHead(500).end(),
        );
        return;
      }
      if (path === '/health') {
        const body = this.health();
        response
          .writeHead(body.status === 'up' ? 200 : 503, { 'content-type': 'application/json' })
          .end(JSON.stringify(body));
        return;
      }
      response.writeHead(404).end();
    });
  }

  /** Listens on 127.0.0.1:`port` (0: a free port); resolves with the port. */
  listen(port: number): Promise<number> {
    return new Promise((done, fail) => {
      this.server.once('error', fail);
      this.server.listen(port, '127.0.0.1', () =>
        done((this.server.address() as AddressInfo).port),
      );
    });
  }

  close(): Promise<void> {
    return new Promise((done) => {
      this.server.closeAllConnections();
      this.server.close(() => done());
    });
  }
}
