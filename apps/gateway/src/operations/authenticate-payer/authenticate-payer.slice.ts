import { findTransaction, maskCardNumber, type AuthenticatePayer } from '@gateway/domain';
import { amount, optionalString, requiredString } from '../../transaction/body-fields';
import { encryptedForSession } from '../../transaction/encrypted-data';
import { requestBase, sessionOf } from '../request-base';
import type { OperationSlice, Parsed } from '../slice';
import { authenticationAsRecorded } from './authentication-as-recorded';

/**
 * AUTHENTICATE_PAYER: continues the AUTHENTICATION transaction of the same ids. The 3-D Secure
 * server answers at once (frictionless) or with a challenge page for the payer.
 */
export const authenticatePayer: OperationSlice<Parsed<AuthenticatePayer>> = {
  parse(body, ctx) {
    const number = optionalString(body, 'sourceOfFunds.provided.card.number');
    return {
      request: {
        ...requestBase(body, ctx),
        ...sessionOf(body),
        type: 'AUTHENTICATE_PAYER',
        amount: amount(body, 'order.amount'),
        currency: requiredString(body, 'order.currency'),
        ...(number !== undefined
          ? {
              card: {
                number: maskCardNumber(number, ctx.protect.cardMask),
                fingerprint: ctx.protect.fingerprint(number),
              },
            }
          : {}),
        authentication: authenticationAsRecorded(body),
      },
    };
  },
  async ask({ request }, { state, ports }) {
    const ids = {
      merchantId: request.merchantId,
      orderId: request.orderId,
      transactionId: request.transactionId,
    };
    // The check stage has made sure the AUTHENTICATION transaction exists.
    const record = findTransaction(state, request.transactionId)!.authentication!;
    const channel = request.authentication.channel ?? record.request.channel;
    const { challengePreference } = request.authentication;
    const response = ports.authentication.authenticate({
      ...ids,
      acsReference: record.acsReference ?? '',
      ...(typeof channel === 'string' ? { channel } : {}),
      ...(typeof challengePreference === 'string' ? { challengePreference } : {}),
    });
    if (response.kind === 'challenge') {
      const challenge = { acsUrl: ports.links.challenge(ids), cReq: response.cReq };
      return { ...request, outcome: { kind: 'challenge', challenge } };
    }
    const sessionId = request.sessionId ?? record.sessionId;
    return {
      ...request,
      outcome: {
        kind: 'result',
        result: response.result,
        ...(await encryptedForSession(ports.sessions, ids, sessionId, response.result)),
      },
    };
  },
};
