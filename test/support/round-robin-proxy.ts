import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A load balancer for the cluster suites: every request (not every connection) goes to the next
 * node in turn, so one client's keep-alive connection still spreads its steps over the nodes. A
 * node that refuses the connection is skipped (nothing was sent to it) and the next is tried; one
 * that fails after the request was sent answers 502, as a real balancer would, and the client
 * retries. No session affinity of any kind.
 */
export interface RoundRobinProxy {
  readonly url: string;
  /** The nodes' base URLs, in turn order; replace to add or remove a node. */
  nodes: string[];
  /** How many requests each node (by base URL) was sent. */
  readonly served: Map<string, number>;
  stop(): Promise<void>;
}

export async function startRoundRobinProxy(nodes: string[] = []): Promise<RoundRobinProxy> {
  let next = 0;
  const served = new Map<string, number>();
  const proxy = {
    nodes,
    served,
    url: '',
    stop: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };

  const forward = (incoming: IncomingMessage, body: Buffer, answer: ServerResponse, tries = 0) => {
    if (tries >= proxy.nodes.length) {
      answer.writeHead(502).end('no node answered');
      return;
    }
    const node = proxy.nodes[next++ % proxy.nodes.length];
    const target = new URL(incoming.url!, node);
    const outgoing = request(
      target,
      { method: incoming.method, headers: incoming.headers },
      (response) => {
        served.set(node, (served.get(node) ?? 0) + 1);
        answer.writeHead(response.statusCode!, response.headers);
        response.pipe(answer);
        response.on('error', () => answer.destroy());
      },
    );
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED') forward(incoming, body, answer, tries + 1);
      else if (!answer.headersSent) answer.writeHead(502).end(`node failed: ${error.code}`);
      else answer.destroy();
    });
    outgoing.end(body);
  };

  const server = createServer((incoming, answer) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => forward(incoming, Buffer.concat(chunks), answer));
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
