import { group } from '../model/compose';
import type { LeafField } from '../model/field';

/** 3-D Secure data of an externally authenticated Authorize or Pay; enrollmentStatus is required when it is sent. */
export const threeDSecure = group('External 3-D Secure authentication data', {
  acsEci: {
    kind: 'digits',
    min: 1,
    max: 2,
    description: 'Electronic commerce indicator from the ACS',
  },
  authenticationStatus: {
    kind: 'enum',
    values: [
      'AUTHENTICATION_ATTEMPTED',
      'AUTHENTICATION_NOT_AVAILABLE',
      'AUTHENTICATION_SUCCESSFUL',
    ],
    description: 'Outcome of the authentication',
  },
  authenticationToken: {
    kind: 'base64',
    lengths: [28, 32],
    description: 'Authentication token, used unaltered',
  },
  enrollmentStatus: {
    kind: 'enum',
    values: ['ENROLLED', 'ENROLLMENT_STATUS_UNDETERMINED', 'NOT_ENROLLED'],
    required: true,
    description: 'Whether the card is enrolled in 3-D Secure',
  },
  xid: {
    kind: 'base64',
    lengths: [28],
    description: 'Transaction id of the authentication, used unaltered',
  },
});

export const threeDSecureId: LeafField = {
  kind: 'ascii',
  min: 1,
  max: 64,
  description: 'Id of a gateway 3-D Secure authentication; not used for external authentication',
};
