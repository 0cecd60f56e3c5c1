import {
  type AcquirerCard,
  type CardRequest,
  type ReferenceOperation,
  SimulatedAcquirer,
} from '@gateway/acquirer';

const NOW = new Date('2026-03-15T23:59:59Z');
const acquirer = new SimulatedAcquirer();

function cardRequest(
  overrides: Partial<Omit<CardRequest, 'card'>> = {},
  card: Partial<AcquirerCard> = {},
): CardRequest {
  return {
    operation: 'AUTHORIZE',
    merchantId: 'TESTMERCHANT',
    orderId: 'order-1',
    transactionId: 'txn-1',
    amount: 10_000,
    currency: 'USD',
    now: NOW,
    card: { number: '5123450000000008', expiryMonth: 1, expiryYear: 39, ...card },
    ...overrides,
  };
}

/** Completes a prefix with the Luhn check digit. */
function luhnCard(prefix: string): string {
  let sum = 0;
  for (let i = 0; i < prefix.length; i++) {
    let digit = Number(prefix[prefix.length - 1 - i]);
    if (i % 2 === 0) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return prefix + ((10 - (sum % 10)) % 10);
}

describe('SimulatedAcquirer', () => {
  describe('outcome by expiry', () => {
    it.each([
      [1, 39, 'APPROVED', '00'],
      [5, 39, 'DECLINED', '05'],
      [4, 27, 'EXPIRED_CARD', '54'],
      [8, 28, 'TIMED_OUT', '68'],
      [1, 37, 'ACQUIRER_SYSTEM_ERROR', '96'],
      [2, 37, 'UNSPECIFIED_FAILURE', '06'],
      [5, 37, 'UNKNOWN', '91'],
      [12, 30, 'APPROVED', '00'],
      [3, 26, 'APPROVED', '00'], // valid through the end of its month
      [2, 26, 'EXPIRED_CARD', '54'],
      [12, 25, 'EXPIRED_CARD', '54'],
    ])('%i/%i → %s', async (expiryMonth, expiryYear, gatewayCode, acquirerCode) => {
      const answer = await acquirer.process(cardRequest({}, { expiryMonth, expiryYear }));
      expect(answer).toMatchObject({ gatewayCode, acquirerCode, approvedAmount: 10_000 });
      expect(answer.reversed).toBe(gatewayCode === 'TIMED_OUT');
      expect(answer.authorizationCode !== undefined).toBe(gatewayCode === 'APPROVED');
      expect(answer.acquirer?.transactionId).toMatch(/^\d{15}$/);
    });

    it('keeps the table outcome after the listed date has passed', async () => {
      const later = new Date('2031-01-01T00:00:00Z');
      const answer = await acquirer.process(
        cardRequest({ now: later }, { expiryMonth: 8, expiryYear: 28 }),
      );
      expect(answer.gatewayCode).toBe('TIMED_OUT');
    });

    it.each(['VERIFY', 'PAY'] as const)('applies to %s', async (operation) => {
      const answer = await acquirer.process(
        cardRequest({ operation }, { expiryMonth: 5, expiryYear: 39 }),
      );
      expect(answer.gatewayCode).toBe('DECLINED');
    });

    it('declines a number that fails the Luhn check, whatever the expiry', async () => {
      const answer = await acquirer.process(cardRequest({}, { number: '5123450000000009' }));
      expect(answer).toMatchObject({ gatewayCode: 'DECLINED', acquirerCode: '14' });
      expect(answer.authorizationCode).toBeUndefined();
    });
  });

  describe('card security code', () => {
    it.each([
      ['5123450000000008', '100', 'MATCH', 'M'],
      ['5123450000000008', '101', 'NOT_PROCESSED', 'P'],
      ['5123450000000008', '102', 'NO_MATCH', 'N'],
      ['371881634498004', '1000', 'MATCH', 'M'],
      ['371881634498004', '1010', 'NOT_PROCESSED', 'P'],
      ['371881634498004', '1020', 'NO_MATCH', 'N'],
      ['5123450000000008', '999', 'NO_MATCH', 'N'],
      ['5123450000000008', '1000', 'NO_MATCH', 'N'],
      ['371881634498004', '100', 'NO_MATCH', 'N'],
    ])('%s with %s → %s', async (number, securityCode, gatewayCode, acquirerCode) => {
      const answer = await acquirer.process(cardRequest({}, { number, securityCode }));
      expect(answer.cardSecurityCode).toEqual({ gatewayCode, acquirerCode });
      expect(answer.gatewayCode).toBe('APPROVED'); // reported, never a decline by itself
    });

    it('is NOT_PRESENT without a code', async () => {
      const answer = await acquirer.process(cardRequest());
      expect(answer.cardSecurityCode).toEqual({ gatewayCode: 'NOT_PRESENT' });
    });
  });

  describe('address verification', () => {
    it.each([
      ['Alpha St', 'ADDRESS_MATCH', 'A'],
      ['Gamma St', 'NOT_VERIFIED', 'G'],
      ['November St', 'NO_MATCH', 'N'],
      ['Romeo St', 'SERVICE_NOT_AVAILABLE_RETRY', 'R'],
      ['Sierra St', 'SERVICE_NOT_SUPPORTED', 'S'],
      ['Uniform St', 'NOT_AVAILABLE', 'U'],
      ['Whiskey St', 'ZIP_MATCH', 'W'],
      ['X-ray St', 'ADDRESS_ZIP_MATCH', 'X'],
      ['Kilo St', 'NAME_MATCH', 'K'],
      ['Oscar St', 'NAME_ADDRESS_MATCH', 'O'],
      ['Lima St', 'NAME_ZIP_MATCH', 'L'],
      ['12  alpha   ST', 'ADDRESS_MATCH', 'A'],
      ['Flat 3, 7 X-RAY St.', 'ADDRESS_ZIP_MATCH', 'X'],
      ['Alpha Stone Rd', 'NO_MATCH', 'N'],
      ['Alpha Stone, 1 Alpha St', 'ADDRESS_MATCH', 'A'],
      ['Betalpha St', 'NO_MATCH', 'N'],
      ['1 Main St', 'NO_MATCH', 'N'],
    ])('%s → %s', async (billingStreet, gatewayCode, acquirerCode) => {
      const answer = await acquirer.process(cardRequest({ billingStreet }));
      expect(answer.avs).toEqual({ gatewayCode, acquirerCode });
    });

    it.each([undefined, '', '   ', 'Zero St'])('%p → NOT_REQUESTED', async (billingStreet) => {
      const answer = await acquirer.process(cardRequest({ billingStreet }));
      expect(answer.avs).toEqual({ gatewayCode: 'NOT_REQUESTED' });
    });
  });

  describe('partial approval (thousandths part 777)', () => {
    it.each(['AUTHORIZE', 'PAY'] as const)(
      '%s approves half, rounded down, when partial amounts are accepted',
      async (operation) => {
        const answer = await acquirer.process(
          cardRequest({ operation, amount: 10_777, acceptPartialAmount: true }),
        );
        expect(answer).toMatchObject({
          gatewayCode: 'PARTIALLY_APPROVED',
          acquirerCode: '10',
          approvedAmount: 5_388,
        });
        expect(answer.authorizationCode).toMatch(/^\d{6}$/);
      },
    );

    it.each([false, undefined])('declines when acceptPartialAmount is %p', async (accept) => {
      const answer = await acquirer.process(
        cardRequest({ amount: 777, acceptPartialAmount: accept }),
      );
      expect(answer).toMatchObject({ gatewayCode: 'DECLINED', approvedAmount: 777 });
      expect(answer.authorizationCode).toBeUndefined();
    });

    it.each([
      ['another thousandths part', cardRequest({ amount: 10_770, acceptPartialAmount: true })],
      ['VERIFY', cardRequest({ operation: 'VERIFY', amount: 10_777 })],
    ])('does not apply to %s', async (_, request) => {
      const answer = await acquirer.process(request);
      expect(answer).toMatchObject({ gatewayCode: 'APPROVED', approvedAmount: request.amount });
    });

    it('leaves a card that is declined anyway declined', async () => {
      const request = cardRequest(
        { amount: 10_777, acceptPartialAmount: true },
        { expiryMonth: 5 },
      );
      const answer = await acquirer.process(request);
      expect(answer).toMatchObject({ gatewayCode: 'DECLINED', approvedAmount: 10_777 });
    });
  });

  describe('risk', () => {
    it.each(['risk-reject@example.com', 'Risk-Reject@Example.com'])(
      '%s is blocked before the acquirer',
      async (customerEmail) => {
        const answer = await acquirer.process(cardRequest({ customerEmail }));
        expect(answer).toEqual({
          gatewayCode: 'BLOCKED',
          approvedAmount: 10_000,
          reversed: false,
          risk: { gatewayCode: 'REJECTED' },
          card: { brand: 'MASTERCARD', scheme: 'MASTERCARD', fundingMethod: 'CREDIT' },
        });
      },
    );

    it.each([
      ['risk-review@example.com', 'REVIEW_REQUIRED'],
      ['payer@example.com', 'ACCEPTED'],
      ['no-risk-reject@example.com', 'ACCEPTED'],
      [undefined, 'ACCEPTED'],
    ])('%p → %s, and the card decides', async (customerEmail, riskCode) => {
      const answer = await acquirer.process(cardRequest({ customerEmail }));
      expect(answer.risk).toEqual({ gatewayCode: riskCode });
      expect(answer.gatewayCode).toBe('APPROVED');
    });
  });

  describe('card facts from the number', () => {
    it.each([
      ['5123450000000008', 'MASTERCARD', 'MASTERCARD', 'CREDIT'],
      ['2223000000000007', 'MASTERCARD', 'MASTERCARD', 'CREDIT'],
      ['5111111111111118', 'MASTERCARD', 'MASTERCARD', 'CREDIT'],
      ['2223000000000023', 'MASTERCARD', 'MASTERCARD', 'DEBIT'],
      ['4508750015741019', 'VISA', 'VISA', 'DEBIT'],
      ['4012000033330026', 'VISA', 'VISA', 'CREDIT'],
      ['371881634498004', 'AMEX', 'AMEX', 'CHARGE'],
      [luhnCard('34000000000000'), 'AMEX', 'AMEX', 'CREDIT'],
      [luhnCard('552100000000000'), 'MASTERCARD', 'MASTERCARD', 'CREDIT'],
      [luhnCard('222100000000000'), 'MASTERCARD', 'MASTERCARD', 'CREDIT'],
      [luhnCard('272099999999999'), 'MASTERCARD', 'MASTERCARD', 'CREDIT'],
      [luhnCard('222000000000000'), 'UNKNOWN', 'OTHER', 'UNKNOWN'],
      [luhnCard('272100000000000'), 'UNKNOWN', 'OTHER', 'UNKNOWN'],
      [luhnCard('560000000000000'), 'UNKNOWN', 'OTHER', 'UNKNOWN'],
      [luhnCard('601100000000000'), 'UNKNOWN', 'OTHER', 'UNKNOWN'],
    ])('%s → %s / %s / %s', async (number, brand, scheme, fundingMethod) => {
      const answer = await acquirer.process(cardRequest({}, { number }));
      expect(answer.gatewayCode).toBe('APPROVED');
      expect(answer.card).toEqual({ brand, scheme, fundingMethod });
    });
  });

  describe('operations on an earlier transaction', () => {
    it.each(['CAPTURE', 'REFUND', 'VOID'] as ReferenceOperation[])(
      '%s is approved for its amount',
      async (operation) => {
        const answer = await acquirer.process({
          operation,
          merchantId: 'TESTMERCHANT',
          orderId: 'order-1',
          transactionId: 'txn-2',
          amount: 4_500,
          currency: 'USD',
          now: NOW,
        });
        expect(answer).toMatchObject({
          gatewayCode: 'APPROVED',
          approvedAmount: 4_500,
          reversed: false,
        });
        expect(answer.card).toBeUndefined();
        expect(answer.cardSecurityCode).toBeUndefined();
        expect(answer.risk).toBeUndefined();
      },
    );
  });

  describe('reference numbers', () => {
    it('derives them from the ids alone', async () => {
      const first = await acquirer.process(cardRequest());
      const replay = await acquirer.process(cardRequest({ now: new Date('2030-01-01') }));
      const other = await acquirer.process(cardRequest({ transactionId: 'txn-2' }));
      expect(first.authorizationCode).toMatch(/^\d{6}$/);
      expect(first.receipt).toMatch(/^\d{12}$/);
      expect(replay.authorizationCode).toBe(first.authorizationCode);
      expect(replay.receipt).toBe(first.receipt);
      expect(replay.acquirer?.transactionId).toBe(first.acquirer?.transactionId);
      expect(other.receipt).not.toBe(first.receipt);
      expect(other.acquirer?.transactionId).not.toBe(first.acquirer?.transactionId);
    });

    it('dates the transaction in the acquirer time zone (UTC)', async () => {
      const answer = await acquirer.process(cardRequest());
      expect(answer.acquirer).toEqual({
        id: 'SIMULATOR',
        transactionId: expect.stringMatching(/^\d{15}$/),
        batch: 20260315,
        date: '2026-03-15',
        timeZone: '+0000',
        settlementDate: '2026-03-15',
      });
    });
  });

  it('answers an immutable object', async () => {
    const answer = await acquirer.process(cardRequest({ billingStreet: 'Alpha St' }));
    expect(Object.isFrozen(answer)).toBe(true);
    expect(Object.isFrozen(answer.avs)).toBe(true);
    expect(Object.isFrozen(answer.acquirer)).toBe(true);
    expect(Object.isFrozen(answer.card)).toBe(true);
  });
});

describe('sources of funds other than a card', () => {
  const acquirer = new SimulatedAcquirer();
  const base = {
    merchantId: 'TESTM',
    orderId: 'o-acct',
    transactionId: 't1',
    amount: 10_000,
    currency: 'USD',
    now: new Date('2026-11-22T10:00:00Z'),
  };

  it.each([
    ['ACH', 'APPROVED_PENDING_SETTLEMENT'],
    ['PROVIDER_B', 'APPROVED_PENDING_SETTLEMENT'],
    ['PROVIDER_C', 'APPROVED_PENDING_SETTLEMENT'],
    ['GIFT_CARD', 'APPROVED'],
  ] as const)('%s is answered %s, with an authorization code', async (sourceType, gatewayCode) => {
    const answer = await acquirer.process({ ...base, operation: 'PAY', sourceType });
    expect(answer).toMatchObject({
      gatewayCode,
      approvedAmount: 10_000,
      risk: { gatewayCode: 'ACCEPTED' },
    });
    expect(answer.authorizationCode).toMatch(/^\d{6}$/);
    expect(answer.cardSecurityCode).toBeUndefined();
  });

  it('risk screening blocks a rejected payer before the acquirer', async () => {
    const answer = await acquirer.process({
      ...base,
      operation: 'PAY',
      sourceType: 'ACH',
      customerEmail: 'risk-reject@example.com',
    });
    expect(answer).toMatchObject({ gatewayCode: 'BLOCKED', risk: { gatewayCode: 'REJECTED' } });
    expect(answer.acquirer).toBeUndefined();
  });
});
