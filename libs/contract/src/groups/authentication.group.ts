import { group } from '../model/compose';
import type { Fields } from '../model/field';

/** 3-D Secure SDK data of an in-app authentication; the five identifiers are required when it is sent. */
const sdk = group('3-D Secure SDK data (in-app flow)', {
  appId: {
    kind: 'string',
    min: 36,
    max: 36,
    required: true,
    description: 'Unique per app install or update',
  },
  encryptedData: {
    kind: 'string',
    min: 0,
    max: 64000,
    required: true,
    description: 'JWE object as a JSON string',
  },
  ephemeralPublicKey: {
    kind: 'string',
    min: 0,
    max: 256,
    required: true,
    description: 'JWK as a JSON string',
  },
  interface: {
    kind: 'enum',
    values: ['HTML', 'NATIVE'],
    description: 'Give only if just one is supported',
  },
  referenceNumber: {
    kind: 'string',
    min: 32,
    max: 32,
    required: true,
    description: 'SDK reference number',
  },
  timeout: {
    kind: 'integer',
    min: 300,
    max: 900,
    description: 'Seconds, default 900, rounded up to a minute',
  },
  transactionId: {
    kind: 'string',
    min: 36,
    max: 36,
    required: true,
    description: 'SDK transaction id',
  },
  uiType: {
    kind: 'enumList',
    values: ['TEXT', 'SINGLE_SELECT', 'MULTI_SELECT', 'OUT_OF_BAND', 'OTHER_HTML'],
    description: 'Supported UI types; give only if not all are supported',
  },
});

/** Every authentication field a request may carry; operations pick. */
export const authenticationFields = {
  '3ds2': group('3-D Secure 2 data', { sdk }),
  acceptVersions: {
    kind: 'enumList',
    values: ['3DS1', '3DS2'],
    description: 'Comma-separated 3-D Secure versions the merchant accepts',
  },
  challengePreference: {
    kind: 'enum',
    values: ['CHALLENGE_MANDATED', 'CHALLENGE_PREFERRED', 'NO_CHALLENGE', 'NO_PREFERENCE'],
    description: 'Whether a challenge is wanted; NO_PREFERENCE by default',
  },
  channel: {
    kind: 'enum',
    values: ['PAYER_BROWSER', 'MERCHANT_REQUESTED'],
    description: 'Who starts the authentication',
  },
  goodsDescription: {
    kind: 'string',
    min: 0,
    max: 30,
    description: 'Shown on the authentication UI if supported',
  },
  psd2: group('PSD2 strong customer authentication', {
    exemption: {
      kind: 'enum',
      values: [
        'LOW_RISK',
        'LOW_VALUE_PAYMENT',
        'MERCHANT_INITIATED_TRANSACTION',
        'NONE',
        'RECURRING_PAYMENT',
        'SCA_DELEGATION',
        'SECURE_CORPORATE_PAYMENT',
      ],
      description: 'Exemption claimed from strong customer authentication',
    },
  }),
  purpose: {
    kind: 'string',
    min: 1,
    max: 100,
    description: 'Purpose of the authentication (values not listed by the spec)',
  },
  redirectResponseUrl: {
    kind: 'httpsUrl',
    description: "Where the payer's browser returns after the challenge",
  },
  transactionId: {
    kind: 'string',
    min: 1,
    max: 40,
    description: 'The authentication transaction whose proof this payment uses',
  },
} satisfies Fields;
