import {
  authorizeBody,
  merchantClient,
  projectionCaughtUp,
  useGateway,
} from '../support/gateway-process';
import { runLedgerCli } from '../support/ledger-process';

/** Behaviour notes: expiry 05/37 makes the simulated acquirer answer UNKNOWN. */
const UNKNOWN_CARD = { month: '5', year: '37' };

/** Issue 18: finance sees how much money is in UNKNOWN per currency, on /metrics and in the ledger. */
describe('money whose outcome is UNKNOWN', () => {
  const under = useGateway();

  beforeAll(async () => {
    const { api, gateway } = under;
    const other = merchantClient(gateway, 'TESTOTHER');
    const put = async (client: typeof api, order: string, body: object, result: string) => {
      const response = await client.put(`/order/${order}/transaction/t1`, body);
      expect([response.status, response.body.result]).toEqual([201, result]);
    };
    await put(api, 'u-1', authorizeBody('12.345', UNKNOWN_CARD), 'UNKNOWN');
    await put(other, 'u-2', authorizeBody('0.50', UNKNOWN_CARD), 'UNKNOWN');
    const euros = { order: { amount: '7.00', currency: 'EUR' } };
    await put(api, 'u-3', authorizeBody('7.00', UNKNOWN_CARD, euros), 'UNKNOWN');
    await put(api, 'ok-1', authorizeBody('100.00'), 'SUCCESS');
    await projectionCaughtUp(gateway);
  });

  it('/metrics: the amount and the number of transactions per currency', async () => {
    const text = await (await fetch(`${under.gateway.baseUrl}/metrics`)).text();
    const samples = text.split('\n').filter((l) => l.startsWith('gateway_unknown_outcome_'));
    expect(samples.sort()).toEqual([
      'gateway_unknown_outcome_amount{currency="EUR"} 7',
      'gateway_unknown_outcome_amount{currency="USD"} 12.845',
      'gateway_unknown_outcome_transactions{currency="EUR"} 1',
      'gateway_unknown_outcome_transactions{currency="USD"} 2',
    ]);
  });

  it('ledger unknown: the same figures folded from the log, for all merchants or one', async () => {
    const { dataDir } = under.gateway;
    const all = await runLedgerCli(['unknown', '--data-dir', dataDir]);
    expect([all.code, all.stdout.split('\n')]).toEqual([
      0,
      [
        'currency  transactions  amount',
        'EUR                  1  7.00',
        'USD                  2  12.845',
        '',
      ],
    ]);
    const one = await runLedgerCli(['unknown', '--merchant', 'TESTOTHER', '--data-dir', dataDir]);
    expect(one.stdout).toBe('currency  transactions  amount\nUSD                  1  0.50\n');
  });
});
