import type { Server } from 'node:http';
import type { ConnectionLimits } from '../config/connection-limits';

/**
 * How often Node holds the requests being received against the timeouts (its default, 30 s,
 * would let a 10 s timeout run to 40).
 */
const TIMEOUT_CHECK_MS = 1000;

/**
 * Connections and time bounded with Node's own mechanisms, shared by all connections (no timer
 * per request):
 * - a request whose headers, or whole body, have not arrived in time is answered 408 (Node's
 *   'clientError', answered by the Fastify option clientErrorHandler) and its connection closed;
 *   so is a connection that sends nothing at all;
 * - an idle keep-alive connection is closed after GATEWAY_KEEP_ALIVE_TIMEOUT;
 * - past GATEWAY_MAX_CONNECTIONS a new connection is closed at once, unread: answering it would
 *   mean reading it (on HTTPS, a TLS handshake first), the very cost the limit exists to bound.
 *   Idle keep-alive connections are then closed too, to make room for clients with work.
 * Runs before listen: the timeout check starts then.
 */
export function boundConnections(
  server: Server,
  limits: ConnectionLimits,
  onRefused: () => void,
): void {
  server.headersTimeout = limits.headersTimeoutSeconds * 1000;
  server.requestTimeout = limits.requestTimeoutSeconds * 1000;
  server.keepAliveTimeout = limits.keepAliveTimeoutSeconds * 1000;
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval =
    TIMEOUT_CHECK_MS;
  if (limits.maxConnections === 0) return;
  server.maxConnections = limits.maxConnections;
  server.on('drop', () => {
    onRefused();
    server.closeIdleConnections();
  });
}
