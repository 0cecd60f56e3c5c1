import { useGateway } from '../support/gateway-process';
import { sendRawBytes } from '../support/raw-http';

/**
 * Requests Node's HTTP parser refuses before any route runs, sent byte for byte over a socket:
 * they get the spec's error object like every other refusal, and the gateway keeps serving.
 */
const PATH = '/api/rest/version/100/merchant/TESTMERCHANT/order/raw-1';
const context = useGateway();

function request(requestLine: Buffer | string, headers = ''): Buffer {
  return Buffer.concat([
    Buffer.from(requestLine),
    Buffer.from(` HTTP/1.1\r\nhost: gateway\r\n${headers}connection: close\r\n\r\n`),
  ]);
}

describe('requests refused by the HTTP parser', () => {
  it('a raw non-ASCII byte in the path: 400 INVALID_REQUEST, the error object', async () => {
    const line = Buffer.concat([Buffer.from(`GET ${PATH}`), Buffer.from([0xe9])]);
    const answer = await sendRawBytes(context.gateway.baseUrl, request(line));
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.body).toEqual({
      result: 'ERROR',
      error: { cause: 'INVALID_REQUEST', explanation: 'The request URL is not valid' },
    });
  });

  it.each([
    ['70 KB', 70 * 1024],
    ['2 MB, still being sent when the gateway answers', 2 * 1024 * 1024],
  ])('headers of %s: 400 INVALID_REQUEST, the error object', async (_size, bytes) => {
    const headers = `x-filler: ${'a'.repeat(bytes)}\r\n`;
    const answer = await sendRawBytes(context.gateway.baseUrl, request(`GET ${PATH}`, headers));
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.body).toEqual({
      result: 'ERROR',
      error: {
        cause: 'INVALID_REQUEST',
        explanation: expect.stringMatching(
          /^The request headers are too large: at most \d+ bytes$/,
        ),
      },
    });
  });

  it('a request line that is not HTTP at all: the error object', async () => {
    const answer = await sendRawBytes(context.gateway.baseUrl, 'HELLO\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ result: 'ERROR', error: { cause: 'INVALID_REQUEST' } });
  });

  it('leaves the gateway serving', async () => {
    expect((await fetch(`${context.gateway.baseUrl}/health/live`)).status).toBe(200);
  });
});
