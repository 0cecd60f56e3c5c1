import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';

export interface RawAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: any;
}

export interface RawRequest {
  readonly method: string;
  readonly headers?: Record<string, string>;
  /** The loopback address to send from (127.0.0.1 unless given): another client address. */
  readonly localAddress?: string;
}

/**
 * A request through node:http, which fetch cannot make: sent from a chosen local address, or with
 * its body sent in two parts at times the test chooses. Resolves once the request is on its way
 * (headers and first part written) with a function that sends the rest and awaits the answer,
 * and the answer itself, for a request the test never finishes.
 */
export function openRequest(
  url: string,
  { method, headers = {}, localAddress }: RawRequest,
  body = '',
  firstPart = body,
): Promise<{ finish(): Promise<RawAnswer>; readonly answer: Promise<RawAnswer> }> {
  const req = httpRequest(url, {
    method,
    localAddress,
    agent: false,
    headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
  });
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    req.once('error', reject);
    req.once('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.once('end', () =>
        resolve({
          status: response.statusCode!,
          headers: response.headers,
          body: parseAnswerBody(text),
        }),
      );
    });
  });
  answer.catch(() => undefined); // observed through finish()
  return new Promise((resolve) => {
    req.flushHeaders();
    req.write(firstPart, () =>
      resolve({
        answer,
        finish: () => {
          req.end(body.slice(firstPart.length));
          return answer;
        },
      }),
    );
  });
}

export async function rawRequest(url: string, options: RawRequest, body = ''): Promise<RawAnswer> {
  return (await openRequest(url, options, body)).finish();
}

/**
 * Writes `bytes` as they are on a fresh connection, bytes no HTTP client would send (a raw
 * non-ASCII byte in the path, headers of any size), and reads the answer until the server closes.
 * Header names come back lower-cased.
 */
export function sendRawBytes(baseUrl: string, bytes: Buffer | string): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A reset after the answer arrived still leaves the answer to read.
    socket.on('error', (error) => chunks.length || reject(error));
    socket.once('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const status = /^HTTP\/1\.1 (\d{3}) /.exec(statusLine);
      if (!status) return reject(new Error(`not an HTTP answer: ${JSON.stringify(text)}`));
      const body = parseAnswerBody(rest.join('\r\n\r\n'));
      resolve({ status: Number(status[1]), headers: headersOf(lines), body });
    });
  });
}

/** An answer's header lines (after the status line) as headers, names lower-cased. */
export function headersOf(lines: readonly string[]): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** An answer's body: its JSON, or its text when it is not JSON. */
export function parseAnswerBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
