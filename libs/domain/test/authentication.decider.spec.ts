import { foldOrder, type OrderEvent } from '@gateway/domain';
import {
  authenticatePayer,
  challenge,
  challengeCompleted,
  completeChallenge,
  encrypted,
  initiate,
  initiated,
  lookedUp,
  payerStep,
  started,
  successful,
  threeDs,
} from './authentication.fixtures';
import { given, orderOf } from './decider-spec';
import { authorize, card, created, declinedAuthorization, pay, recorded } from './order.fixtures';

const statusAfter = (events: OrderEvent[]) => {
  const order = orderOf(foldOrder(events));
  return { status: order.status, authenticationStatus: order.authenticationStatus };
};

const failed = threeDs('AUTHENTICATION_FAILED', 'N');
const cancelled = threeDs('AUTHENTICATION_FAILED', 'N', { challengeCancelled: true });
const rejected = threeDs('AUTHENTICATION_REJECTED', 'R');
const attempted = threeDs('AUTHENTICATION_ATTEMPTED', 'A', { acsEci: '01' });
const afterPayer = { ...lookedUp.request, redirectResponseUrl: 'https://shop.example/3ds' };
const frictionless = (result: typeof successful, gatewayCode: 'APPROVED' | 'DECLINED') =>
  payerStep('PayerAuthenticated', {
    gatewayCode,
    authentication: {
      ...lookedUp,
      request: afterPayer,
      payerInteraction: 'NOT_REQUIRED',
      status: result.status,
      result,
      gatewayRecommendation: gatewayCode === 'APPROVED' ? 'PROCEED' : 'DO_NOT_PROCEED',
      encryptedData: encrypted,
    },
  });

/** An order whose challenge succeeded: authentication a1 is complete. */
const authenticated = [created(), initiated(), started, challengeCompleted(successful, 'APPROVED')];

describe('3-D Secure authentication', () => {
  describe('INITIATE_AUTHENTICATION', () => {
    it('opens an AUTHENTICATION transaction on a new order, moving no money', () => {
      given([]).when(initiate()).then([created(), initiated()]);
      expect(statusAfter([created(), initiated()])).toEqual({
        status: 'AUTHENTICATION_INITIATED',
        authenticationStatus: 'AUTHENTICATION_AVAILABLE',
      });
    });

    it('a card without 3-D Secure answers AUTHENTICATION_UNAVAILABLE, and the order is unsuccessful', () => {
      const unavailable = initiated({
        status: 'AUTHENTICATION_UNAVAILABLE',
        version: 'NONE',
        gatewayRecommendation: 'PROCEED',
        sessionId: 'SESSION0001',
        request: lookedUp.request,
      });
      given([]).when(initiate('AUTHENTICATION_UNAVAILABLE')).then([created(), unavailable]);
      expect(statusAfter([created(), unavailable])).toEqual({
        status: 'AUTHENTICATION_UNSUCCESSFUL',
        authenticationStatus: 'AUTHENTICATION_UNAVAILABLE',
      });
    });

    it('may follow a declined payment on the same order, with a new transaction id', () =>
      given([created(), declinedAuthorization('t1', 1_000)])
        .when(initiate())
        .then([initiated()]));

    it('is refused once the order is authorized, naming apiOperation', () =>
      given([
        created(),
        {
          type: 'AuthorizationProcessed',
          data: recorded('AUTHORIZATION', 't1', 1_000, { sourceOfFunds: card }),
        },
      ])
        .when(initiate())
        .thenRejects('apiOperation'));

    it('reusing the transaction id of another transaction is refused', () =>
      given([created(), initiated()]).when(initiate()).thenRejects('transaction.id'));
  });

  describe('AUTHENTICATE_PAYER', () => {
    it('a challenge card leaves the authentication pending with the challenge to show', () => {
      given([created(), initiated()])
        .when(authenticatePayer({ kind: 'challenge', challenge }))
        .then([started]);
      const order = orderOf(foldOrder([created(), initiated(), started]));
      expect(order).toMatchObject({
        status: 'AUTHENTICATION_INITIATED',
        authenticationStatus: 'AUTHENTICATION_PENDING',
      });
      // The same transaction, with the INITIATE_AUTHENTICATION version kept for its retries.
      expect(order.transactions).toHaveLength(1);
      expect(order.transactions[0]).toMatchObject({ gatewayCode: 'PENDING', amount: 25_000 });
      expect(order.transactions[0].earlier?.map((v) => v.requestHash)).toEqual(['h-a1']);
    });

    it('a frictionless card answers AUTHENTICATION_SUCCESSFUL at once: the order is AUTHENTICATED', () => {
      const result = frictionless(successful, 'APPROVED');
      given([created(), initiated()])
        .when(authenticatePayer({ kind: 'result', result: successful, encryptedData: encrypted }))
        .then([result]);
      expect(statusAfter([created(), initiated(), result])).toEqual({
        status: 'AUTHENTICATED',
        authenticationStatus: 'AUTHENTICATION_SUCCESSFUL',
      });
    });

    it('an attempted authentication (transStatus A) counts as authenticated', () => {
      const result = frictionless(attempted, 'APPROVED');
      given([created(), initiated()])
        .when(authenticatePayer({ kind: 'result', result: attempted, encryptedData: encrypted }))
        .then([result]);
      expect(statusAfter([created(), initiated(), result]).status).toBe('AUTHENTICATED');
    });

    it('a rejected authentication (transStatus R) is declined: do not proceed', () => {
      const result = frictionless(rejected, 'DECLINED');
      given([created(), initiated()])
        .when(authenticatePayer({ kind: 'result', result: rejected, encryptedData: encrypted }))
        .then([result]);
      expect(statusAfter([created(), initiated(), result])).toEqual({
        status: 'AUTHENTICATION_UNSUCCESSFUL',
        authenticationStatus: 'AUTHENTICATION_REJECTED',
      });
    });

    it('before INITIATE_AUTHENTICATION, on a new order, is refused naming order.id', () =>
      given([])
        .when(authenticatePayer({ kind: 'challenge', challenge }))
        .thenRejects('order.id'));

    it('with a transaction id that INITIATE_AUTHENTICATION did not open is refused naming transaction.id', () =>
      given([created(), initiated()])
        .when(authenticatePayer({ kind: 'challenge', challenge }, { transactionId: 'a2' }))
        .thenRejects('transaction.id'));

    it('on a payment transaction id is refused naming transaction.id', () =>
      given([created(), declinedAuthorization('a1', 1_000)])
        .when(authenticatePayer({ kind: 'challenge', challenge }))
        .thenRejects('transaction.id'));

    it('when authentication is unavailable for the card is refused naming apiOperation', () =>
      given([
        created(),
        initiated({ ...lookedUp, status: 'AUTHENTICATION_UNAVAILABLE', version: 'NONE' }),
      ])
        .when(authenticatePayer({ kind: 'challenge', challenge }))
        .thenRejects('apiOperation'));

    it('a second time, once the payer is being authenticated, is refused naming transaction.id', () =>
      given([created(), initiated(), started])
        .when(authenticatePayer({ kind: 'challenge', challenge }, { requestHash: 'other' }))
        .thenRejects('transaction.id'));

    it('for another card than the one initiated is refused naming the card number', () =>
      given([created(), initiated()])
        .when(
          authenticatePayer(
            { kind: 'challenge', challenge },
            { card: { number: '222300xxxxxx0007' } },
          ),
        )
        .thenRejects('sourceOfFunds.provided.card.number'));

    it("without a redirectResponseUrl for the payer's browser is refused as MISSING", () =>
      given([created(), initiated()])
        .when(authenticatePayer({ kind: 'challenge', challenge }, { authentication: {} }))
        .thenRejects('authentication.redirectResponseUrl', 'MISSING'));

    it('in another currency than the order is refused naming order.currency', () =>
      given([created(), initiated()])
        .when(authenticatePayer({ kind: 'challenge', challenge }, { currency: 'EUR' }))
        .thenRejects('order.currency'));
  });

  describe('the challenge', () => {
    it.each([
      ['success', successful, 'APPROVED', 'AUTHENTICATED', 'AUTHENTICATION_SUCCESSFUL'],
      ['failure', failed, 'DECLINED', 'AUTHENTICATION_UNSUCCESSFUL', 'AUTHENTICATION_FAILED'],
      ['cancel', cancelled, 'ABORTED', 'AUTHENTICATION_UNSUCCESSFUL', 'AUTHENTICATION_FAILED'],
    ] as const)('%s is recorded as the result', (_, result, code, status, authenticationStatus) => {
      const completed = challengeCompleted(result, code);
      given([created(), initiated(), started]).when(completeChallenge(result)).then([completed]);
      expect(statusAfter([created(), initiated(), started, completed])).toEqual({
        status,
        authenticationStatus,
      });
    });

    it('cannot be completed twice', () =>
      given([created(), initiated(), started, challengeCompleted(successful, 'APPROVED')])
        .when(completeChallenge(failed))
        .thenRejects('transaction.id'));

    it('cannot be completed before AUTHENTICATE_PAYER asked for it', () =>
      given([created(), initiated()])
        .when(completeChallenge(successful))
        .thenRejects('transaction.id'));
  });

  describe('AUTHORIZE citing authentication.transactionId', () => {
    const cite = (extra = {}) =>
      authorize({
        transactionId: 't1',
        amount: 25_000,
        authenticationTransactionId: 'a1',
        ...extra,
      });

    it('carries the proof of a successful authentication', () => {
      const proof = {
        transactionId: 'a1',
        status: 'AUTHENTICATION_SUCCESSFUL',
        version: '3DS2',
        result: successful,
      } as const;
      const authorization: OrderEvent = {
        type: 'AuthorizationProcessed',
        data: recorded('AUTHORIZATION', 't1', 25_000, { sourceOfFunds: card, proof }),
      };
      given(authenticated).when(cite()).then([authorization]);
      expect(statusAfter([...authenticated, authorization])).toEqual({
        status: 'AUTHORIZED',
        authenticationStatus: 'AUTHENTICATION_SUCCESSFUL',
      });
    });

    it('after a failed authentication is recorded as AUTHENTICATION_FAILED, moving no money', () => {
      const failedHistory = [
        created(),
        initiated(),
        started,
        challengeCompleted(failed, 'DECLINED'),
      ];
      const proof = {
        transactionId: 'a1',
        status: 'AUTHENTICATION_FAILED',
        version: '3DS2',
        result: failed,
      } as const;
      const refused: OrderEvent = {
        type: 'AuthorizationProcessed',
        data: recorded('AUTHORIZATION', 't1', 25_000, {
          sourceOfFunds: card,
          proof,
          gatewayCode: 'AUTHENTICATION_FAILED',
        }),
      };
      given(failedHistory).when(cite()).then([refused]);
      expect(orderOf(foldOrder([...failedHistory, refused]))).toMatchObject({
        status: 'FAILED',
        totals: { authorized: 0 },
      });
    });

    it('after a rejected authentication is recorded as AUTHENTICATION_FAILED too', () => {
      const history = [created(), initiated(), frictionless(rejected, 'DECLINED')];
      given(history)
        .when(cite())
        .then([
          {
            type: 'AuthorizationProcessed',
            data: recorded('AUTHORIZATION', 't1', 25_000, {
              sourceOfFunds: card,
              proof: {
                transactionId: 'a1',
                status: 'AUTHENTICATION_REJECTED',
                version: '3DS2',
                result: rejected,
              },
              gatewayCode: 'AUTHENTICATION_FAILED',
            }),
          },
        ]);
    });

    it('while the challenge is pending is refused naming authentication.transactionId', () =>
      given([created(), initiated(), started])
        .when(cite())
        .thenRejects('authentication.transactionId'));

    it('naming no authentication of the order is refused', () =>
      given(authenticated)
        .when(cite({ authenticationTransactionId: 'nope' }))
        .thenRejects('authentication.transactionId'));

    it('for another card than the authenticated one is refused', () =>
      given(authenticated)
        .when(
          cite({
            sourceOfFunds: {
              type: 'CARD',
              provided: {
                card: { number: '222300xxxxxx0007', expiry: { month: '1', year: '39' } },
              },
            },
          }),
        )
        .thenRejects('authentication.transactionId'));

    it('without citing it, an authenticated order may still be authorized', () =>
      given(authenticated)
        .when(authorize({ transactionId: 't1', amount: 25_000 }))
        .then([
          {
            type: 'AuthorizationProcessed',
            data: recorded('AUTHORIZATION', 't1', 25_000, { sourceOfFunds: card }),
          },
        ]));
  });

  describe('AUTHORIZE and PAY naming a 3DSecureId', () => {
    const authorization: OrderEvent = {
      type: 'AuthorizationProcessed',
      data: recorded('AUTHORIZATION', 't1', 25_000, { sourceOfFunds: card }),
    };

    it('naming a 3-D Secure record of the order is accepted', () =>
      given(authenticated)
        .when(authorize({ transactionId: 't1', amount: 25_000, threeDSecureId: 'a1' }))
        .then([authorization]));

    it('naming no transaction of the order is refused naming 3DSecureId', () =>
      given(authenticated)
        .when(authorize({ transactionId: 't1', amount: 25_000, threeDSecureId: 'nope' }))
        .thenRejects('3DSecureId'));

    it('on a new order, where it can name nothing, is refused', () =>
      given([])
        .when(pay({ transactionId: 't1', amount: 25_000, threeDSecureId: 'a1' }))
        .thenRejects('3DSecureId'));

    const declinedPayment: OrderEvent = {
      type: 'PaymentProcessed',
      data: recorded('PAYMENT', 't0', 1_000, { sourceOfFunds: card, gatewayCode: 'DECLINED' }),
    };

    it('naming a transaction that is no 3-D Secure record is refused', () =>
      given([created(), declinedPayment])
        .when(pay({ transactionId: 't1', amount: 25_000, threeDSecureId: 't0' }))
        .thenRejects('3DSecureId'));
  });
});
