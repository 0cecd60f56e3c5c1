import { SimulatedAuthenticationServer } from '@gateway/acquirer';

const server = new SimulatedAuthenticationServer();
const ids = { merchantId: 'TESTM', orderId: 'o-1', transactionId: 'a-1' };
const authenticate = (cardNumber: string, extra = {}) => {
  const lookup = server.lookup({ ...ids, cardNumber });
  return server.authenticate({ ...ids, acsReference: lookup.acsReference!, ...extra });
};

describe('simulated 3-D Secure (behaviour notes test cards)', () => {
  it.each([
    ['5123456789012346', 'Y', 'AUTHENTICATION_SUCCESSFUL'],
    ['5500005555555559', 'A', 'AUTHENTICATION_ATTEMPTED'],
    ['5506900140100503', 'R', 'AUTHENTICATION_REJECTED'],
  ])('%s is frictionless with transStatus %s', (card, transStatus, status) => {
    expect(authenticate(card)).toMatchObject({
      kind: 'result',
      result: { transactionStatus: transStatus, status },
    });
  });

  it('a challenge card asks for a challenge, and the payer decides', () => {
    const answer = authenticate('5123450000000008');
    expect(answer.kind).toBe('challenge');
    const complete = (choice: 'success' | 'failure' | 'cancel') =>
      server.completeChallenge({ ...ids, acsReference: 'CHALLENGE', choice });
    expect(complete('success')).toMatchObject({ transactionStatus: 'Y', acsEci: '02' });
    expect(complete('failure')).toMatchObject({ transactionStatus: 'N' });
    expect(complete('cancel')).toMatchObject({ challengeCancelled: true });
    expect(complete('success').authenticationToken).toHaveLength(28);
  });

  it('5123459999998221 is not enrolled: authentication unavailable', () => {
    expect(server.lookup({ ...ids, cardNumber: '5123459999998221' })).toEqual({
      status: 'AUTHENTICATION_UNAVAILABLE',
      version: 'NONE',
    });
  });

  it('CHALLENGE_MANDATED challenges a frictionless card; without a payer no challenge is shown', () => {
    expect(
      authenticate('5123456789012346', { challengePreference: 'CHALLENGE_MANDATED' }).kind,
    ).toBe('challenge');
    expect(authenticate('5123450000000008', { channel: 'MERCHANT_REQUESTED' })).toMatchObject({
      kind: 'result',
      result: { status: 'AUTHENTICATION_FAILED' },
    });
  });
});
