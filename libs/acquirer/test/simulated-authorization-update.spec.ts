import { type AuthorizationUpdateRequest, SimulatedAcquirer } from '@gateway/acquirer';

const NOW = new Date('2026-03-15T23:59:59Z');
const acquirer = new SimulatedAcquirer();

function update(overrides: Partial<AuthorizationUpdateRequest> = {}): AuthorizationUpdateRequest {
  return {
    operation: 'UPDATE_AUTHORIZATION',
    merchantId: 'TESTMERCHANT',
    orderId: 'order-1',
    transactionId: 'update-1',
    amount: 15_000,
    currency: 'USD',
    now: NOW,
    cardExpiry: { expiryMonth: 1, expiryYear: 39 },
    ...overrides,
  };
}

/** Behaviour notes, "Update Authorization": answered as AUTHORIZE for the order's card. */
describe('SimulatedAcquirer: UPDATE_AUTHORIZATION', () => {
  it.each([
    [1, 39, 'APPROVED'],
    [5, 39, 'DECLINED'],
    [12, 30, 'APPROVED'],
    [2, 26, 'EXPIRED_CARD'], // valid at the authorization, expired by the update
    [8, 28, 'TIMED_OUT'],
  ])('the card expiring %i/%i → %s', async (expiryMonth, expiryYear, gatewayCode) => {
    const answer = await acquirer.process(update({ cardExpiry: { expiryMonth, expiryYear } }));
    expect(answer).toMatchObject({ gatewayCode, approvedAmount: 15_000 });
    expect(answer.reversed).toBe(gatewayCode === 'TIMED_OUT');
    expect(answer.authorizationCode !== undefined).toBe(gatewayCode === 'APPROVED');
    expect(answer.risk).toEqual({ gatewayCode: 'ACCEPTED' });
  });

  it('declines the amount that would be partly approved: a new total cannot be', async () => {
    const answer = await acquirer.process(update({ amount: 15_777 }));
    expect(answer).toMatchObject({ gatewayCode: 'DECLINED', approvedAmount: 15_777 });
  });

  it('blocks a payer risk screening rejects, before the acquirer', async () => {
    const answer = await acquirer.process(update({ customerEmail: 'risk-reject@example.com' }));
    expect(answer).toMatchObject({ gatewayCode: 'BLOCKED', risk: { gatewayCode: 'REJECTED' } });
    expect(answer.acquirer).toBeUndefined();
  });

  it('presents no card: no security code, address or card facts are answered', async () => {
    const answer = await acquirer.process(update());
    expect(answer.cardSecurityCode).toBeUndefined();
    expect(answer.avs).toBeUndefined();
    expect(answer.card).toBeUndefined();
  });
});
