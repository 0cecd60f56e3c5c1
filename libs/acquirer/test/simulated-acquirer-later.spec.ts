import { type InquiryRequest, SimulatedAcquirerLater } from '@gateway/acquirer';

const REQUESTED = new Date('2026-03-15T10:00:00Z');
const later = new SimulatedAcquirerLater({
  outcomeAfterMs: 20_000,
  disputeAfterMs: 30_000,
  chargebackAfterMs: 45_000,
});

function inquiry(amount: number, afterMs: number): InquiryRequest {
  return {
    merchantId: 'TESTMERCHANT',
    orderId: 'order-1',
    transactionId: 'auth-1',
    amount,
    currency: 'USD',
    requestedAt: REQUESTED,
    now: new Date(REQUESTED.getTime() + afterMs),
  };
}

/** Behaviour notes, "UNKNOWN outcomes": the outcome is learnt 20 s after the request. */
describe('SimulatedAcquirerLater: inquiries', () => {
  it.each([
    [100_000, 19_999, 'UNKNOWN'],
    [100_000, 20_000, 'APPROVED'],
    [100_002, 30_000, 'APPROVED'],
    [100_001, 20_000, 'DECLINED'],
    [100_999, 86_400_000, 'DECLINED'],
  ])(
    'amount %i (thousandths) asked %i ms after the request → %s',
    async (amount, after, answer) => {
      expect((await later.inquire(inquiry(amount, after))).answer).toBe(answer);
    },
  );

  it('answers the same codes every time (an approval carries an authorization code)', async () => {
    const first = await later.inquire(inquiry(100_000, 30_000));
    expect(first.details).toEqual({
      acquirerCode: '00',
      acquirerMessage: 'Approved',
      authorizationCode: expect.stringMatching(/^\d{6}$/),
    });
    expect(await later.inquire(inquiry(100_000, 90_000))).toEqual(first);
  });
});

/** Behaviour notes, "Disputes and chargebacks": a `.666` capture or payment. */
describe('SimulatedAcquirerLater: disputes and chargebacks', () => {
  const capture = {
    merchantId: 'TESTMERCHANT',
    orderId: 'order-1',
    transactionId: 'capture-1',
    type: 'CAPTURE' as const,
    amount: 12_666,
    currency: 'USD',
    time: REQUESTED,
  };

  it('disputes it after disputeAfterMs, then charges the disputed amount back', () => {
    const [dispute, chargeback] = later.noticesAbout(capture);
    expect(dispute).toEqual({
      dueAt: new Date('2026-03-15T10:00:30Z'),
      told: {
        kind: 'DISPUTE',
        disputeId: expect.stringMatching(/^DSP\d{12}$/),
        targetTransactionId: 'capture-1',
        amount: 12_666,
        currency: 'USD',
      },
    });
    expect(chargeback).toEqual({
      dueAt: new Date('2026-03-15T10:01:15Z'),
      told: {
        ...dispute.told,
        kind: 'CHARGEBACK',
        transactionId: `CHARGEBACK-${(dispute.told as { disputeId: string }).disputeId}`,
      },
    });
  });

  it('chooses the same ids on every run, other ids for another transaction', () => {
    expect(later.noticesAbout(capture)).toEqual(later.noticesAbout(capture));
    const other = later.noticesAbout({ ...capture, transactionId: 'capture-2' })[0];
    expect(other.told).not.toEqual(later.noticesAbout(capture)[0].told);
  });

  it.each([
    [12_000, 0],
    [12_667, 0],
    [666, 2],
  ])('an amount of %i (thousandths) → %i notices', (amount, notices) => {
    expect(later.noticesAbout({ ...capture, amount })).toHaveLength(notices);
  });
});
