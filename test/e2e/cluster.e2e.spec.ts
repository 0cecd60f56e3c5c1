import { describeWithKafka, readTopic, type RawRecord } from '../support/kafka-mock-cluster';
import {
  committedOrderEvents,
  expectAtLeastOnce,
  readAllCommitted,
} from '../support/order-event-records';
import { startGatewayCluster, type GatewayCluster } from '../support/gateway-cluster';
import { authorizeBody, orderIds } from '../support/gateway-process';
import { saveCardBody } from '../support/payment-data';
import {
  authenticatePayerBody,
  card,
  hiddenFields,
  initiateAuthenticationBody,
  postForm,
  providerPaymentBody,
} from '../support/three-d-secure';

const NODES = 3;
const newOrder = orderIds('cluster');

/**
 * Three gateway nodes on one KurrentDB and one Kafka behind a round-robin balancer with no
 * affinity: consecutive requests, the payer's browser included, land on different nodes.
 */
describeWithKafka()('a three-node cluster behind a round-robin balancer', () => {
  let cluster: GatewayCluster;
  beforeAll(async () => {
    cluster = await startGatewayCluster(NODES);
  }, 60_000);
  afterAll(() => cluster?.stop());

  /** The order as each node retrieves it: the same body from all of them. */
  async function everyNodeShows(order: string) {
    const answers = await Promise.all(
      cluster.nodes.map((_, node) => cluster.on(node).get(`/order/${order}`)),
    );
    for (const answer of answers) expect(answer.status).toBe(200);
    for (const answer of answers.slice(1)) expect(answer.body).toEqual(answers[0].body);
    return answers[0].body;
  }

  it('spreads requests over every node, one after the other', async () => {
    const before = NODES * 2;
    const seen = cluster.nodes.map((node) => cluster.proxy.served.get(node.baseUrl) ?? 0);
    for (let i = 0; i < before; i++)
      expect((await cluster.api.get('/order/none')).status).toBe(404);
    cluster.nodes.forEach((node, i) =>
      expect(cluster.proxy.served.get(node.baseUrl)).toBe(seen[i] + 2),
    );
  });

  it('authorize, capture and refund, each on another node; every node retrieves the same order', async () => {
    const order = newOrder();
    const authorized = await cluster.on(0).put(`/order/${order}/transaction/1`, authorizeBody());
    expect(authorized.status).toBe(201);
    const captured = await cluster.on(1).put(`/order/${order}/transaction/2`, {
      apiOperation: 'CAPTURE',
      transaction: { amount: '60.00', currency: 'USD' },
    });
    expect(captured.status).toBe(201);
    const refunded = await cluster.on(2).put(`/order/${order}/transaction/3`, {
      apiOperation: 'REFUND',
      transaction: { amount: '10.00', currency: 'USD' },
    });
    expect(refunded.status).toBe(201);
    expect(await everyNodeShows(order)).toMatchObject({
      status: 'PARTIALLY_REFUNDED',
      totalAuthorizedAmount: 100,
      totalCapturedAmount: 60,
      totalRefundedAmount: 10,
    });
  });

  it('a retry of the same request on every other node answers byte for byte the same; a changed body does not', async () => {
    const order = newOrder();
    const body = authorizeBody('25.00');
    const original = await cluster.on(0).put(`/order/${order}/transaction/1`, body);
    expect(original.status).toBe(201);
    for (const node of [1, 2]) {
      const retry = await cluster.on(node).put(`/order/${order}/transaction/1`, body);
      expect(retry.status).toBe(201);
      expect(retry.text).toBe(original.text);
    }
    const changed = await cluster
      .on(2)
      .put(`/order/${order}/transaction/1`, authorizeBody('26.00'));
    expect(changed.status).toBe(400);
    expect((await everyNodeShows(order)).transaction).toHaveLength(1);
  });

  it('the same request sent to all three nodes at once is recorded once', async () => {
    const order = newOrder();
    const body = authorizeBody('40.00');
    const answers = await Promise.all(
      cluster.nodes.map((_, node) => cluster.on(node).put(`/order/${order}/transaction/1`, body)),
    );
    const created = answers.filter((answer) => answer.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const answer of created)
      expect(answer.body.transaction).toEqual(created[0].body.transaction);
    expect((await everyNodeShows(order)).transaction).toHaveLength(1);
  });

  it('3-D Secure: initiate, authenticate, the ACS challenge and AUTHORIZE all through the balancer', async () => {
    const order = newOrder();
    const number = '5123450000000008';
    const initiated = await cluster.api.put(
      `/order/${order}/transaction/auth-1`,
      initiateAuthenticationBody(number),
    );
    expect(initiated.status).toBe(201);
    const payer = await cluster.api.put(
      `/order/${order}/transaction/auth-1`,
      authenticatePayerBody(undefined, { sourceOfFunds: { provided: { card: card(number) } } }),
    );
    expect(payer.body).toMatchObject({ result: 'PENDING' });
    const { acsUrl, cReq } = payer.body.authentication.redirect.customized['3DS'];
    expect(acsUrl.startsWith(cluster.proxy.url)).toBe(true);
    const page = await postForm(acsUrl, { creq: cReq });
    expect(page.status).toBe(200);
    expect(page.text).toContain('USD 250.00');
    const result = await postForm(`${acsUrl}/result`, { choice: 'success' });
    expect(result.status).toBe(200);
    expect(hiddenFields(result.text)).toMatchObject({ result: 'SUCCESS', 'order.id': order });
    const authorized = await cluster.api.put(`/order/${order}/transaction/pay-1`, {
      apiOperation: 'AUTHORIZE',
      order: { amount: '250.00', currency: 'USD' },
      sourceOfFunds: { provided: { card: card(number) } },
      authentication: { transactionId: 'auth-1' },
    });
    expect(authorized.body).toMatchObject({
      result: 'SUCCESS',
      order: { status: 'AUTHORIZED', authenticationStatus: 'AUTHENTICATION_SUCCESSFUL' },
    });
    expect(await everyNodeShows(order)).toMatchObject({ status: 'AUTHORIZED' });
  });

  it('a browser payment: initiated on one node, the payer at the provider and back through others', async () => {
    const order = newOrder();
    const initiated = await cluster.api.put(
      `/order/${order}/transaction/bp-1`,
      providerPaymentBody(),
    );
    expect(initiated.status).toBe(201);
    const redirectUrl: string = initiated.body.browserPayment.redirectUrl;
    expect(redirectUrl.startsWith(cluster.proxy.url)).toBe(true);
    expect((await fetch(redirectUrl)).status).toBe(200);
    const back = await postForm(redirectUrl, { decision: 'APPROVED' });
    expect(back.status).toBe(303);
    expect(await everyNodeShows(order)).toMatchObject({
      status: 'CAPTURED',
      totalCapturedAmount: 80,
    });
  });

  it('a payment session created, filled and used for 3-D Secure and payment on different nodes', async () => {
    const order = newOrder();
    const number = '5123450000000008';
    const created = await cluster.on(0).post('/session');
    expect(created.status).toBe(201);
    const { id } = created.body.session;
    const filled = await cluster.on(1).put(`/session/${id}`, {
      sourceOfFunds: { provided: { card: card(number) } },
    });
    expect(filled.status).toBe(200);
    const initiated = await cluster.on(2).put(`/order/${order}/transaction/auth-1`, {
      ...initiateAuthenticationBody(number),
      sourceOfFunds: undefined,
      session: { id },
    });
    expect(initiated.status).toBe(201);
    const payer = await cluster
      .on(0)
      .put(
        `/order/${order}/transaction/auth-1`,
        authenticatePayerBody(undefined, { session: { id } }),
      );
    expect(payer.body).toMatchObject({ result: 'PENDING' });
    const { acsUrl, cReq } = payer.body.authentication.redirect.customized['3DS'];
    expect((await postForm(acsUrl, { creq: cReq })).status).toBe(200);
    expect((await postForm(`${acsUrl}/result`, { choice: 'success' })).status).toBe(200);
    const paid = await cluster.on(1).put(`/order/${order}/transaction/pay-1`, {
      apiOperation: 'PAY',
      order: { amount: '250.00', currency: 'USD' },
      session: { id },
      authentication: { transactionId: 'auth-1' },
    });
    expect(paid.body).toMatchObject({
      result: 'SUCCESS',
      sourceOfFunds: { provided: { card: { number: '512345xxxxxx0008' } } },
      order: { status: 'CAPTURED', authenticationStatus: 'AUTHENTICATION_SUCCESSFUL' },
    });
    const shown = await cluster.on(2).get(`/session/${id}`);
    expect(shown.status).toBe(200);
    expect(JSON.stringify(shown.body)).not.toContain(number);
  });

  it('a card saved on one node pays on another; deleted on a third, it pays nowhere', async () => {
    const saved = await cluster.on(0).post('/token', saveCardBody('4508750015741019'));
    expect(saved.status).toBe(201);
    const { token } = saved.body;
    const payWith = (node: number, order = newOrder()) =>
      cluster.on(node).put(`/order/${order}/transaction/1`, {
        apiOperation: 'PAY',
        order: { amount: '12.00', currency: 'USD' },
        sourceOfFunds: { type: 'CARD', token },
      });
    const paid = await payWith(1);
    expect(paid.status).toBe(201);
    expect(paid.body).toMatchObject({ result: 'SUCCESS', sourceOfFunds: { token } });
    expect((await cluster.on(2).delete(`/token/${token}`)).status).toBe(200);
    for (const node of [0, 1]) {
      const refused = await payWith(node);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ field: 'sourceOfFunds.token' });
    }
  });

  it('every event of every order reaches Kafka once, in order per order', async () => {
    const orders = Array.from({ length: 6 }, () => newOrder());
    for (const [i, order] of orders.entries()) {
      expect(
        (await cluster.api.put(`/order/${order}/transaction/1`, authorizeBody('10.00'))).status,
      ).toBe(201);
      const capture = await cluster.api.put(`/order/${order}/transaction/2`, {
        apiOperation: 'CAPTURE',
        transaction: { amount: `${i + 1}.00`, currency: 'USD' },
      });
      expect(capture.status).toBe(201);
    }
    const wanted = new Set(orders);
    const committed = committedOrderEvents(cluster.standin).filter((event) =>
      wanted.has(event.streamId.split(':')[2]),
    );
    const records = await readAllCommitted(cluster.kafka, cluster.topic, committed);
    // Give a second relay (the bug this checks for) time to publish its copies too.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const again = await readTopic(
      cluster.kafka.brokers,
      cluster.topic,
      (read) => read.length >= records.length,
    );
    const mine = again.filter((record) => wanted.has(orderOf(record)));
    expect(expectAtLeastOnce(mine, committed).duplicates).toBe(0);
    for (const order of orders)
      expect(mine.filter((record) => orderOf(record) === order).at(-1)!.headers['event-type']).toBe(
        'CaptureProcessed',
      );
  });
});

/** The order id of a record's key (`{merchant}:{order}`). */
const orderOf = (record: RawRecord) => record.key.slice(record.key.indexOf(':') + 1);
