import { connect, type Socket } from 'node:net';

/** A TCP connection to the gateway that sends what the test says, when it says, and no more. */
export interface RawConnection {
  readonly socket: Socket;
  /** Everything the server sent so far. */
  received(): string;
  /** True until either side closed the connection. */
  isOpen(): boolean;
  /** Resolves with everything the server sent once the connection is closed. */
  readonly closed: Promise<string>;
}

/** Opens a connection and writes `bytes` (none: a connection that never says anything). */
export function openConnection(baseUrl: string, bytes = ''): Promise<RawConnection> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    let open = true;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    const closed = new Promise<string>((done) =>
      socket.once('close', () => {
        open = false;
        done(received);
      }),
    );
    socket.once('error', (error) => (open ? reject(error) : undefined));
    socket.once('connect', () => {
      socket.on('error', () => undefined); // a reset ends the connection like a close
      if (bytes) socket.write(bytes);
      resolve({ socket, received: () => received, isOpen: () => open, closed });
    });
  });
}

/** The request line and headers of a request whose body will be `contentLength` bytes. */
export function requestHead(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  contentLength = 0,
): string {
  const lines = Object.entries({
    host: 'gateway',
    'content-type': 'application/json',
    ...(contentLength ? { 'content-length': String(contentLength) } : {}),
    ...headers,
  }).map(([name, value]) => `${name}: ${value}\r\n`);
  return `${method} ${path} HTTP/1.1\r\n${lines.join('')}\r\n`;
}

/** Resolves when `promise` does, or rejects naming `what` after `ms` (a guard, not a target). */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
    }),
  ]);
}
