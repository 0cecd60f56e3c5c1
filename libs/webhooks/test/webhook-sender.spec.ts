import { startWebhookReceiver, type WebhookReceiver } from '../../../test/support/webhook-receiver';
import { readFileSync } from 'node:fs';
import { AddressGuard } from '../src/sending/address-guard';
import { HttpsWebhookSender } from '../src/sending/webhook-sender';

/** Over a real HTTPS receiver on loopback, with its self-signed certificate. */
describe('HTTPS webhook sender', () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver((path) =>
      path === '/slow' ? 'hang' : path === '/fail' ? 500 : 200,
    );
  });
  afterAll(() => receiver.close());

  const sender = (allow: string[], trusted = true, timeoutMs = 2000) =>
    new HttpsWebhookSender({
      guard: new AddressGuard(allow),
      timeoutMs,
      maxSockets: 4,
      ...(trusted ? { extraCa: readFileSync(receiver.certFile, 'utf8') } : {}),
    });

  it('posts the body and headers and reports the status', async () => {
    const s = sender(['127.0.0.0/8']);
    const ok = await s.send(`${receiver.url}/ok`, { 'x-notification-id': 'n-1' }, '{"a":1}');
    const fail = await s.send(`${receiver.url}/fail`, {}, '{}');
    s.close();
    expect(ok.statusCode).toBe(200);
    expect(fail.statusCode).toBe(500);
    const [received] = receiver.received('/ok');
    expect(received.body).toBe('{"a":1}');
    expect(received.headers['x-notification-id']).toBe('n-1');
  });

  it('refuses loopback unless the allow-list opens it, by address and by name, without connecting', async () => {
    const s = sender([]);
    const before = receiver.received().length;
    const literal = await s.send(`${receiver.url}/ok`, {}, '{}');
    const named = await s.send(`${receiver.url.replace('127.0.0.1', 'localhost')}/ok`, {}, '{}');
    s.close();
    expect(literal.error).toMatch(/127.0.0.1 is a private, loopback/);
    expect(named.error).toMatch(/localhost: .* is a private, loopback/);
    expect(receiver.received()).toHaveLength(before);
  });

  it('resolves a host name and connects to the checked address', async () => {
    const s = sender(['127.0.0.0/8', '::1']);
    const result = await s.send(
      `${receiver.url.replace('127.0.0.1', 'localhost')}/by-name`,
      {},
      '{}',
    );
    s.close();
    expect(result.statusCode).toBe(200);
  });

  it('refuses a certificate no trusted authority signed', async () => {
    const s = sender(['127.0.0.0/8'], false);
    const result = await s.send(`${receiver.url}/ok`, {}, '{}');
    s.close();
    expect(result.statusCode).toBeUndefined();
    expect(result.error).toMatch(/self[- ]signed/i);
  });

  it('gives up on a receiver that does not answer in time', async () => {
    const s = sender(['127.0.0.0/8'], true, 200);
    const result = await s.send(`${receiver.url}/slow`, {}, '{}');
    s.close();
    expect(result.statusCode).toBeUndefined();
    expect(result.error).toMatch(/no answer within 200 ms/);
    expect(result.latencyMs).toBeGreaterThanOrEqual(195);
  });

  it('refuses plain http', async () => {
    const s = sender(['127.0.0.0/8']);
    expect((await s.send('http://127.0.0.1:9/x', {}, '{}')).error).toBe('not an https URL');
    s.close();
  });
});
