import {
  agreementRefusal,
  decideAgreement,
  foldAgreement,
  type AgreementCitation,
  type AgreementEvent,
  type AgreementRequest,
  type CitingPayment,
} from '../src';

/**
 * Data-only specs for the agreement stream (behaviour notes, "Agreements"):
 *   given([established]).when({ agreement: { id, type: 'UNSCHEDULED' } }).refuses('agreement.type')
 *   given([]).paying(cited, approved).then([established])
 */
function given(history: readonly AgreementEvent[]) {
  const state = foldAgreement(history);
  return {
    when: (request: Omit<AgreementRequest, 'today'>, today = '2026-11-26') => ({
      refuses: (field: string) =>
        expect(agreementRefusal(state, { ...request, today })).toMatchObject({ field }),
      allows: () => expect(agreementRefusal(state, { ...request, today })).toBeUndefined(),
    }),
    paying: (cited: AgreementCitation, payment: CitingPayment) => ({
      then: (expected: readonly AgreementEvent[]) =>
        expect(decideAgreement(state, cited, payment)).toEqual(expected),
    }),
  };
}

const first: CitingPayment = {
  orderId: 'o-1',
  transactionId: 't-1',
  approved: true,
  amount: 25_000,
  currency: 'USD',
  card: { fingerprint: 'f1' },
  payerAuthenticated: true,
  acquirerReference: '123456789012345',
  time: '2026-11-26T10:00:00.000Z',
};
const recurring: AgreementCitation = {
  id: 'sub-1',
  type: 'RECURRING',
  expiryDate: '2027-12-31',
  daysBetweenPayments: 30,
};
const established: AgreementEvent = {
  type: 'AgreementEstablished',
  data: {
    agreementId: 'sub-1',
    type: 'RECURRING',
    expiryDate: '2027-12-31',
    daysBetweenPayments: 30,
    amount: 25_000,
    currency: 'USD',
    card: { fingerprint: 'f1' },
    payerAuthenticated: true,
    acquirerReference: '123456789012345',
    orderId: 'o-1',
    transactionId: 't-1',
    time: '2026-11-26T10:00:00.000Z',
  },
};
const unauthenticated: AgreementEvent = {
  type: 'AgreementEstablished',
  data: { ...established.data, payerAuthenticated: false },
};

describe('establishing an agreement', () => {
  it('the first approved payment with agreement.type establishes it, with its terms', () =>
    given([]).paying(recurring, first).then([established]));

  it('a declined first payment establishes nothing', () =>
    given([])
      .paying(recurring, { ...first, approved: false })
      .then([]));

  it('an established agreement is not established twice (a retry, a second first payment)', () =>
    given([established])
      .paying(recurring, { ...first, orderId: 'o-2' })
      .then([]));

  it('a payment citing the id without a type establishes nothing', () =>
    given([]).paying({ id: 'sub-1' }, first).then([]));

  it('a second AgreementEstablished in the stream (another process won) changes nothing', () =>
    expect(foldAgreement([established, unauthenticated])).toEqual(established.data));
});

describe('payments citing an agreement', () => {
  it('a later payment citing only the id is allowed', () =>
    given([established])
      .when({ agreement: { id: 'sub-1' } })
      .allows());

  it('repeating the type is allowed', () =>
    given([established])
      .when({ agreement: { id: 'sub-1', type: 'RECURRING' } })
      .allows());

  it('changing the type is INVALID on agreement.type', () =>
    given([established])
      .when({ agreement: { id: 'sub-1', type: 'UNSCHEDULED' } })
      .refuses('agreement.type'));

  it('an unknown agreement without a type is INVALID on agreement.type', () =>
    given([])
      .when({ agreement: { id: 'sub-1' } })
      .refuses('agreement.type'));

  it('an unknown agreement with a type is a first payment', () =>
    given([]).when({ agreement: recurring }).allows());

  it('on the expiry date it is allowed, the day after INVALID on agreement.id', () => {
    given([established])
      .when({ agreement: { id: 'sub-1' } }, '2027-12-31')
      .allows();
    given([established])
      .when({ agreement: { id: 'sub-1' } }, '2028-01-01')
      .refuses('agreement.id');
  });

  it('a first payment whose expiry date has passed is INVALID on agreement.expiryDate', () =>
    given([])
      .when({ agreement: { ...recurring, expiryDate: '2026-11-25' } })
      .refuses('agreement.expiryDate'));
});

describe('PSD2 exemptions for merchant-initiated payments', () => {
  const later = { agreement: { id: 'sub-1' }, amount: 25_000, currency: 'USD' };

  it.each(['MERCHANT_INITIATED_TRANSACTION', 'RECURRING_PAYMENT'])(
    '%s is allowed on an agreement whose first payment authenticated the payer',
    (exemption) =>
      given([established])
        .when({ ...later, exemption })
        .allows(),
  );

  it.each(['MERCHANT_INITIATED_TRANSACTION', 'RECURRING_PAYMENT'])(
    '%s is INVALID on authentication.psd2.exemption when the first payment was not authenticated',
    (exemption) =>
      given([unauthenticated])
        .when({ ...later, exemption })
        .refuses('authentication.psd2.exemption'),
  );

  it('is INVALID on authentication.psd2.exemption without an agreement', () =>
    given([])
      .when({ exemption: 'MERCHANT_INITIATED_TRANSACTION', amount: 25_000 })
      .refuses('authentication.psd2.exemption'));

  it('is INVALID on authentication.psd2.exemption for an agreement not yet established', () =>
    given([])
      .when({ agreement: recurring, exemption: 'RECURRING_PAYMENT' })
      .refuses('authentication.psd2.exemption'));

  it('RECURRING_PAYMENT of another amount than the first is INVALID on order.amount', () =>
    given([established])
      .when({ ...later, exemption: 'RECURRING_PAYMENT', amount: 26_000 })
      .refuses('order.amount'));

  it('RECURRING_PAYMENT in another currency is INVALID on order.amount', () =>
    given([established])
      .when({ ...later, exemption: 'RECURRING_PAYMENT', currency: 'EUR' })
      .refuses('order.amount'));

  it('MERCHANT_INITIATED_TRANSACTION may vary the amount', () =>
    given([established])
      .when({ ...later, exemption: 'MERCHANT_INITIATED_TRANSACTION', amount: 26_000 })
      .allows());

  it('other exemptions need no agreement', () =>
    given([]).when({ exemption: 'LOW_VALUE_PAYMENT', amount: 10_000 }).allows());
});
