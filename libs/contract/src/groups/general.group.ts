import { group, pick } from '../model/compose';
import type { Fields, LeafField } from '../model/field';

/** A payment session id; also sourceOfFunds.session in Verify version 16. */
export const sessionId: LeafField = {
  kind: 'ascii',
  min: 31,
  max: 35,
  description: 'Payment session identifier',
};

/** General request fields, accepted by all operations unless an operation says otherwise. */
export const generalFields = {
  correlationId: {
    kind: 'string',
    min: 1,
    max: 100,
    description: 'Echoed in the response; not validated or stored',
  },
  externalTokenProvider: group('External token provider', {
    customData: {
      kind: 'string',
      min: 1,
      max: 4000,
      description: 'Data for the token provider; never sensitive data',
    },
  }),
  lineOfBusiness: {
    kind: 'string',
    min: 1,
    max: 100,
    pattern: '^[^ ]*$',
    format: 'without spaces',
    description: 'Line of business; omit for the null line',
  },
  partnerSolutionId: {
    kind: 'string',
    min: 1,
    max: 40,
    description: 'Solution id issued by the payment provider',
  },
  responseControls: group('Response controls', {
    sensitiveData: {
      kind: 'string',
      min: 1,
      max: 50,
      description:
        'UNMASK asks for unmasked bank account numbers and IBANs (certificate authentication and the UNMASK permission)',
    },
  }),
  session: group('Payment session', {
    id: sessionId,
    version: {
      kind: 'ascii',
      min: 10,
      max: 10,
      description: 'Optimistic lock on the session content; a mismatch is rejected',
    },
  }),
  userId: { kind: 'string', min: 1, max: 256, description: 'The user who initiated the operation' },
} satisfies Fields;

/** Refund version 26 predates lineOfBusiness (version 41 adds it). */
export const generalFieldsWithoutLineOfBusiness = pick(
  generalFields,
  'correlationId',
  'externalTokenProvider',
  'partnerSolutionId',
  'responseControls',
  'session',
  'userId',
);
