import { connect } from 'node:net';
import { requestHead } from './raw-connections';
import { headersOf, parseAnswerBody, type RawAnswer } from './raw-http';

/**
 * One keep-alive TCP connection that sends requests one after another and reads each answer, as
 * an HTTP client with a connection pool does (Node's `request`, Apache HttpClient): a request
 * refused 401 is sent again on the same connection, with credentials. Answers are read by their
 * Content-Length; a connection the server closes fails the request waiting on it.
 */
export interface KeepAliveConnection {
  /** Sends one request and resolves with its answer; header names come back lower-cased. */
  send(
    method: string,
    path: string,
    headers?: Record<string, string>,
    body?: string,
  ): Promise<RawAnswer>;
  /** True until either side closed the connection. */
  isOpen(): boolean;
  close(): void;
}

export function openKeepAlive(
  baseUrl: string,
  localAddress?: string,
): Promise<KeepAliveConnection> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ port: Number(port), host: hostname, localAddress });
    let buffered = Buffer.alloc(0);
    let open = true;
    let waiting: { done(answer: RawAnswer): void; fail(error: Error): void } | undefined;
    const readAnswer = () => {
      const end = buffered.indexOf('\r\n\r\n');
      if (!waiting || end < 0) return;
      const [statusLine, ...lines] = buffered.subarray(0, end).toString('latin1').split('\r\n');
      const headers = headersOf(lines);
      const length = Number(headers['content-length']);
      if (!Number.isInteger(length))
        return waiting.fail(new Error(`no Content-Length: ${statusLine}`));
      if (buffered.length < end + 4 + length) return;
      const text = buffered.subarray(end + 4, end + 4 + length).toString('utf8');
      buffered = buffered.subarray(end + 4 + length);
      const answered = waiting;
      waiting = undefined;
      answered.done({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: parseAnswerBody(text),
      });
    };
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      readAnswer();
    });
    socket.once('close', () => {
      open = false;
      waiting?.fail(new Error('the server closed the connection'));
    });
    socket.once('error', (error) => (open && !waiting ? reject(error) : undefined));
    socket.once('connect', () =>
      resolve({
        send: (method, path, headers = {}, body = '') =>
          new Promise<RawAnswer>((done, fail) => {
            if (!open) return fail(new Error('the connection is closed'));
            waiting = { done, fail };
            const length = Buffer.byteLength(body);
            socket.write(
              requestHead(method, path, { ...headers, connection: 'keep-alive' }, length),
            );
            socket.write(body);
          }),
        isOpen: () => open,
        close: () => socket.end(),
      }),
    );
  });
}

/** The answers a challenge-first client gets: to its request without credentials, then with them. */
export interface ChallengedExchange {
  readonly challenge: RawAnswer;
  /** Undefined when the first answer carried no Basic challenge: such a client stops there. */
  readonly answer?: RawAnswer;
}

/**
 * A request as Node's `request` (auth with sendImmediately: false) and Apache HttpClient send it:
 * first without an Authorization header; then, only if refused 401 with a Basic challenge, the
 * same request again on the same connection with the credentials.
 */
export async function sendChallenged(
  connection: KeepAliveConnection,
  authorization: string,
  method: string,
  path: string,
  body?: string,
): Promise<ChallengedExchange> {
  const headers = { accept: 'application/json' };
  const challenge = await connection.send(method, path, headers, body);
  const scheme = /^basic\b/i.exec(String(challenge.headers['www-authenticate'] ?? ''));
  if (challenge.status !== 401 || !scheme) return { challenge };
  const answer = await connection.send(method, path, { ...headers, authorization }, body);
  return { challenge, answer };
}
