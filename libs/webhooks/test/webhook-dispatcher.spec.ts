import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { authorize, capture, declined } from '../../../libs/domain/test/order.fixtures';
import { standardWebhookSecret } from '../src/sending/webhook-signature';
import {
  eventually,
  record,
  ScriptedSender,
  secretOf,
  startHarness,
  type Harness,
} from './support/dispatcher-harness';

const URL_A = 'https://shop-a.example/hooks';
const URL_B = 'https://shop-b.example/hooks';

const order = (merchantId: string, orderId: string, notificationUrl?: string) => ({
  merchantId,
  orderId,
  ...(notificationUrl ? { notificationUrl } : {}),
});

describe('webhook dispatcher', () => {
  let harness: Harness;
  afterEach(() => harness?.close());

  it('sends the Retrieve Transaction response once per event, signed, with the notification headers', async () => {
    harness = await startHarness();
    const envelopes = await record(harness.events, {
      ...authorize({ transactionId: 'auth-1', amount: 100_000 }),
      ...order('TESTA', 'o-1', URL_A),
    });
    // OrderCreated then AuthorizationProcessed; the bus redelivers both (at least once).
    await harness.feed([...envelopes, ...envelopes]);
    const [sent] = await eventually(
      () => harness.sender.to(URL_A).length > 0 && harness.sender.to(URL_A),
    );
    await new Promise((done) => setTimeout(done, 100));
    expect(harness.sender.sent).toHaveLength(1);
    const notified = envelopes.find((e) => e.type === 'AuthorizationProcessed')!;
    expect(sent.headers).toMatchObject({
      'content-type': 'application/json',
      'x-notification-secret': secretOf('TESTA'),
      'x-notification-id': notified.eventId,
      'x-notification-attempt': '1',
      'webhook-id': notified.eventId,
    });
    const verified = new Webhook(standardWebhookSecret(secretOf('TESTA'))).verify(
      sent.body,
      sent.headers,
    );
    expect(verified).toMatchObject({
      merchant: 'TESTA',
      order: {
        id: 'o-1',
        status: 'AUTHORIZED',
        totalAuthorizedAmount: 100,
        notificationUrl: URL_A,
      },
      transaction: { id: 'auth-1', type: 'AUTHORIZATION', amount: 100 },
      result: 'SUCCESS',
      version: '100',
    });
    expect(() =>
      new Webhook(standardWebhookSecret(secretOf('TESTB'))).verify(sent.body, sent.headers),
    ).toThrow();
    expect(harness.deliveries.get(notified.eventId)).toMatchObject({
      status: 'DELIVERED',
      attempts: 1,
    });
  });

  it('notifies nothing for an order without a notificationUrl', async () => {
    harness = await startHarness();
    await harness.feed(
      await record(harness.events, {
        ...authorize({ transactionId: 't', amount: 1000 }),
        ...order('TESTA', 'o-2'),
      }),
    );
    await new Promise((done) => setTimeout(done, 100));
    expect(harness.sender.sent).toHaveLength(0);
    expect(harness.deliveries.list({ limit: 10 }).deliveries).toHaveLength(0);
  });

  it('shows each notification the order as it stood at its own event', async () => {
    harness = await startHarness();
    const authorized = await record(harness.events, {
      ...authorize({ transactionId: 'auth-1', amount: 100_000 }),
      ...order('TESTA', 'o-3', URL_A),
    });
    const captured = await record(harness.events, {
      ...capture({ transactionId: 'cap-1', amount: 60_000 }),
      ...order('TESTA', 'o-3'),
    });
    // The authorization is fed after the capture was committed: its body must not show the capture.
    await harness.feed([...authorized, ...captured]);
    const sent = await eventually(
      () => harness.sender.to(URL_A).length === 2 && harness.sender.to(URL_A),
    );
    const bodies = sent.map((s) => JSON.parse(s.body));
    expect(
      bodies.map((b) => [b.transaction.id, b.order.status, b.order.totalCapturedAmount]),
    ).toEqual([
      ['auth-1', 'AUTHORIZED', 0],
      ['cap-1', 'PARTIALLY_CAPTURED', 60],
    ]);
  });

  it('reads no event store: each notification is its event’s transaction, as the relay built it', async () => {
    harness = await startHarness();
    const envelopes = await record(harness.events, {
      ...authorize({ transactionId: 'auth-1', amount: 100_000 }),
      ...order('TESTA', 'o-4', URL_A),
    });
    for (let i = 1; i <= 3; i++)
      envelopes.push(
        ...(await record(harness.events, {
          ...capture({ transactionId: `cap-${i}`, amount: 10_000 }),
          ...order('TESTA', 'o-4'),
        })),
      );
    const reads = jest.spyOn(harness.events, 'readStream');
    for (const envelope of envelopes) await harness.feed([envelope]);
    const sent = await eventually(
      () => harness.sender.to(URL_A).length === 4 && harness.sender.to(URL_A),
    );
    expect(reads).not.toHaveBeenCalled();
    const notifying = envelopes.filter((e) => e.type !== 'OrderCreated');
    expect(sent.map((s) => s.body)).toEqual(notifying.map((e) => JSON.stringify(e.transaction)));
    expect(
      sent
        .map((s) => JSON.parse(s.body))
        .map((b) => [b.transaction.id, b.order.totalCapturedAmount]),
    ).toEqual([
      ['auth-1', 0],
      ['cap-1', 10],
      ['cap-2', 20],
      ['cap-3', 30],
    ]);
  });

  it('retries on the schedule with one notification id, then dead-letters; a redelivery sends it again', async () => {
    harness = await startHarness({ sender: new ScriptedSender(() => 500) });
    const envelopes = await record(harness.events, {
      ...authorize({ transactionId: 'a', amount: 1000 }),
      ...order('TESTA', 'o-4', URL_A),
    });
    await harness.feed(envelopes);
    const id = envelopes[1].eventId;
    // Schedule [0, 30 ms, 30 ms]: the first attempt and three retries.
    await eventually(() => harness.deliveries.get(id)?.status === 'DEAD_LETTERED');
    const dead = harness.deliveries.get(id)!;
    expect(dead.attemptLog.map((a) => [a.attempt, a.statusCode, a.outcome])).toEqual([
      [1, 500, 'FAILED'],
      [2, 500, 'FAILED'],
      [3, 500, 'FAILED'],
      [4, 500, 'FAILED'],
    ]);
    const sent = harness.sender.to(URL_A);
    expect(sent.map((s) => s.headers['x-notification-id'])).toEqual([id, id, id, id]);
    expect(sent.map((s) => s.headers['x-notification-attempt'])).toEqual(['1', '2', '3', '4']);
    expect(new Set(sent.map((s) => s.body)).size).toBe(1);

    harness.sender.answer = () => 204;
    expect(await harness.deliveries.redeliverDeadLettered('TESTB', Date.now())).toBe(0);
    expect(await harness.deliveries.redeliverDeadLettered('TESTA', Date.now())).toBe(1);
    harness.dispatcher.nudge();
    await eventually(() => harness.deliveries.get(id)?.status === 'DELIVERED');
    expect(harness.sender.to(URL_A).at(-1)!.headers).toMatchObject({
      'x-notification-id': id,
      'x-notification-attempt': '5',
    });
  });

  it('delivers an order’s notifications in order: a later one waits for the earlier one’s retries', async () => {
    const sender = new ScriptedSender((_url, nth) => (nth <= 2 ? 503 : 200));
    harness = await startHarness({ sender });
    const authorized = await record(harness.events, {
      ...authorize({ transactionId: 'auth-1', amount: 100_000 }),
      ...order('TESTA', 'o-5', URL_A),
    });
    const captured = await record(harness.events, {
      ...capture({ transactionId: 'cap-1', amount: 10_000 }),
      ...order('TESTA', 'o-5'),
    });
    await harness.feed([...authorized, ...captured]);
    await eventually(() => sender.to(URL_A).length === 4);
    expect(sender.to(URL_A).map((s) => JSON.parse(s.body).transaction.id)).toEqual([
      'auth-1',
      'auth-1',
      'auth-1',
      'cap-1',
    ]);
  });

  it('a dead-lettered notification lets the order’s later notifications go', async () => {
    const sender = new ScriptedSender((_url, nth) => (nth <= 4 ? 500 : 200));
    harness = await startHarness({ sender });
    const first = await record(harness.events, {
      ...authorize({ transactionId: 'auth-1', amount: 100_000 }),
      ...order('TESTA', 'o-6', URL_A),
    });
    const second = await record(harness.events, {
      ...capture({ transactionId: 'cap-1', amount: 10_000 }),
      ...order('TESTA', 'o-6'),
    });
    await harness.feed([...first, ...second]);
    await eventually(() => harness.deliveries.get(second[0].eventId)?.status === 'DELIVERED');
    expect(harness.deliveries.get(first[1].eventId)!.status).toBe('DEAD_LETTERED');
  });

  it('a merchant whose endpoint never answers does not hold up another merchant', async () => {
    const sender = new ScriptedSender((url) => (url === URL_A ? 'hang' : 200));
    harness = await startHarness({ sender, config: { concurrency: 4, merchantConcurrency: 2 } });
    for (let i = 0; i < 6; i++) {
      await harness.feed(
        await record(harness.events, {
          ...authorize({ transactionId: 't', amount: 1000 }),
          ...order('TESTA', `slow-${i}`, URL_A),
        }),
      );
    }
    await harness.feed(
      await record(harness.events, {
        ...authorize({ transactionId: 't', amount: 1000 }),
        ...order('TESTB', 'fast', URL_B),
      }),
    );
    await eventually(() => sender.to(URL_B).length === 1, 2000);
    // TESTA holds its two slots; its other orders wait rather than take the rest.
    expect(sender.to(URL_A)).toHaveLength(2);
  });

  it('a declined transaction notifies too, and a restart finds what was pending', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'webhooks-')), 'webhooks.db');
    const hanging = new ScriptedSender(() => 'hang');
    harness = await startHarness({ file, sender: hanging });
    const envelopes = await record(harness.events, {
      ...authorize({ transactionId: 'd', amount: 1000, outcome: declined() }),
      ...order('TESTA', 'o-7', URL_A),
    });
    await harness.feed(envelopes);
    await eventually(() => hanging.sent.length === 1);
    await harness.close(); // cut short: the attempt is not logged

    harness = await startHarness({ file, events: harness.events });
    const [sent] = await eventually(
      () => harness.sender.to(URL_A).length > 0 && harness.sender.to(URL_A),
    );
    expect(sent.headers['x-notification-attempt']).toBe('1');
    expect(JSON.parse(sent.body).response.gatewayCode).toBe('DECLINED');
    await eventually(() => harness.deliveries.get(envelopes[1].eventId)?.status === 'DELIVERED');
  });
});
