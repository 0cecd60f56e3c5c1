import { get, type Body } from '../../transaction/body-fields';

/**
 * authentication.* of AUTHENTICATE_PAYER as recorded. The in-app SDK's JWE and ephemeral key are
 * the directory server's to read and are not kept; the SDK timeout is rounded up to a whole minute
 * (spec, Limits); with no payer present the challenge preference is NO_CHALLENGE whatever was sent.
 */
export function authenticationAsRecorded(body: Body): Body {
  const sent = (get(body, 'authentication') ?? {}) as Body;
  const sdk = get(body, 'authentication.3ds2.sdk') as Body | undefined;
  const recordedSdk = sdk
    ? (() => {
        const { encryptedData: _jwe, ephemeralPublicKey: _key, timeout, ...kept } = sdk;
        return typeof timeout === 'number'
          ? { ...kept, timeout: Math.ceil(timeout / 60) * 60 }
          : kept;
      })()
    : undefined;
  return {
    ...sent,
    ...(recordedSdk ? { '3ds2': { sdk: recordedSdk } } : {}),
    ...(sent.channel === 'MERCHANT_REQUESTED' ? { challengePreference: 'NO_CHALLENGE' } : {}),
  };
}
