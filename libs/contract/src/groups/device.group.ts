import { group } from '../model/compose';
import type { Fields } from '../model/field';

export const deviceFields = {
  ani: { kind: 'string', min: 1, max: 10, description: 'Caller number (ANI) of a telephone order' },
  aniCallType: { kind: 'string', min: 1, max: 2, description: 'Two-digit ANI call type' },
  browser: { kind: 'string', min: 1, max: 255, description: "The payer's browser User-Agent" },
  fingerprint: {
    kind: 'string',
    min: 1,
    max: 4000,
    description: 'Device fingerprint from a risk provider',
  },
  hostname: { kind: 'string', min: 1, max: 60, description: "The payer's host name" },
  ipAddress: {
    kind: 'string',
    min: 7,
    max: 15,
    pattern: '^[0-9]{1,3}([.][0-9]{1,3}){3}$',
    format: 'an IPv4 address in the form nnn.nnn.nnn.nnn',
    description: "The payer's IPv4 address",
  },
  mobilePhoneModel: {
    kind: 'string',
    min: 1,
    max: 255,
    description: "The payer's mobile phone model",
  },
} satisfies Fields;

export const device = group('The payer device', deviceFields);

/**
 * device.browserDetails.* is named by the behaviour notes for Authenticate Payer but not listed;
 * these are the members the gateway family documents for 3-D Secure 2 browser data.
 */
export const browserDetails = group('Browser data for 3-D Secure 2', {
  '3DSecureChallengeWindowSize': {
    kind: 'enum',
    values: ['FULL_SCREEN', '250_X_400', '390_X_400', '500_X_600', '600_X_400'],
    description: 'Size of the challenge window',
  },
  acceptHeaders: {
    kind: 'string',
    min: 1,
    max: 2048,
    description: 'HTTP Accept headers of the browser',
  },
  colorDepth: { kind: 'integer', min: 1, max: 99, description: 'Screen colour depth in bits' },
  javaEnabled: { kind: 'boolean', description: 'Whether the browser runs Java' },
  javaScriptEnabled: { kind: 'boolean', description: 'Whether the browser runs JavaScript' },
  language: { kind: 'string', min: 1, max: 8, description: 'Browser language, IETF BCP 47' },
  screenHeight: { kind: 'integer', min: 1, max: 999999, description: 'Screen height in pixels' },
  screenWidth: { kind: 'integer', min: 1, max: 999999, description: 'Screen width in pixels' },
  timeZone: {
    kind: 'integer',
    min: -840,
    max: 720,
    description: 'Minutes between UTC and local time',
  },
});

export const authenticationDevice = group('The payer device', { ...deviceFields, browserDetails });
