import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { authorizeBody, useGateway } from '../support/gateway-process';

/**
 * A node that runs none of the in-process consumers (GATEWAY_CONSUMERS=none): it takes and
 * answers transactions as ever, opens no read model, says so on /health/ready and /metrics, and
 * refuses the order list, which only the projector could serve, with the error object.
 */
const under = useGateway({ GATEWAY_CONSUMERS: 'none' });

describe('GATEWAY_CONSUMERS=none', () => {
  it('serves transactions and orders, and opens no read model', async () => {
    expect((await under.api.put('/order/off-1/transaction/1', authorizeBody())).status).toBe(201);
    const order = await under.api.get('/order/off-1');
    expect(order.status).toBe(200);
    expect(order.body.status).toBe('AUTHORIZED');
    expect(existsSync(join(under.gateway.dataDir, 'read-model.db'))).toBe(false);
  });

  it('refuses the order list with the error object', async () => {
    const list = await under.api.get('/order');
    expect(list.status).toBe(404);
    expect(list.body).toEqual({
      result: 'ERROR',
      error: {
        cause: 'INVALID_REQUEST',
        explanation:
          'The order list is not served by this gateway node: it does not run the order-summary projector',
      },
    });
  });

  it('says which consumers run on /health/ready and /metrics', async () => {
    const ready = await fetch(`${under.gateway.baseUrl}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'UP',
      checks: { eventStore: 'open', bus: 'off' },
      consumers: [],
      projections: { orderSummary: { state: 'off' } },
    });
    const metrics = await (await fetch(`${under.gateway.baseUrl}/metrics`)).text();
    for (const consumer of ['projector', 'relay', 'dispatcher'])
      expect(metrics).toContain(`gateway_consumer_running{consumer="${consumer}"} 0`);
    expect(metrics).not.toContain('gateway_relay_lag_events');
  });
});
