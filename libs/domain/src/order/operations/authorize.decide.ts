import type { OpensTransaction } from './operation-decider';
import { paymentRecord, paymentRejection, refusedByAuthentication } from './payment';

/** AUTHORIZE: an AUTHORIZATION holding the approved amount. */
export const authorizeDecider: OpensTransaction<'AUTHORIZE'> = {
  opens: 'transaction',
  rejection: paymentRejection,
  answeredWithoutAsking: refusedByAuthentication,
  event: (command, state, common) => ({
    type: 'AuthorizationProcessed',
    data: paymentRecord(command, state, common, 'AUTHORIZATION'),
  }),
};
