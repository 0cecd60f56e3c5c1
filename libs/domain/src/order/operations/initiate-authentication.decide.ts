import type { AuthenticationRecord } from '../authentication.types';
import type { OpensTransaction } from './operation-decider';
import { openOrderRejection } from './rejections';

/** INITIATE_AUTHENTICATION: a new AUTHENTICATION transaction holding what the lookup found, no money. */
export const initiateAuthenticationDecider: OpensTransaction<'INITIATE_AUTHENTICATION'> = {
  opens: 'transaction',
  rejection: openOrderRejection,
  event(command, _state, common) {
    const { outcome } = command;
    const authentication: AuthenticationRecord = {
      status: outcome.status,
      version: outcome.version,
      // Without authentication the merchant may still pay, without its liability shift.
      gatewayRecommendation: 'PROCEED',
      ...(outcome.acsReference !== undefined ? { acsReference: outcome.acsReference } : {}),
      ...(command.sessionId !== undefined ? { sessionId: command.sessionId } : {}),
      request: command.authentication,
    };
    return {
      type: 'AuthenticationInitiated',
      data: {
        ...common,
        gatewayCode: 'APPROVED',
        processor: {},
        type: 'AUTHENTICATION',
        amount: 0,
        sourceOfFunds: command.sourceOfFunds,
        authentication,
      },
    };
  },
};
