import { createHash } from 'node:crypto';
import type { ThreeDsResult } from '../../../domain/src/order/authentication.types';
import type {
  AuthenticationServer,
  ChallengeCompletion,
  LookupAnswer,
  LookupRequest,
  PayerAuthenticationRequest,
  PayerAuthenticationResponse,
} from './authentication-server.port';

/** How the issuer of each behaviour-notes 3-D Secure test card authenticates. */
type Profile = 'CHALLENGE' | 'FRICTIONLESS_Y' | 'FRICTIONLESS_A' | 'FRICTIONLESS_R';

const PROFILES: Readonly<Record<string, Profile>> = {
  '5123450000000008': 'CHALLENGE',
  '2223000000000007': 'CHALLENGE',
  '4440000009900010': 'CHALLENGE',
  '371881733404002': 'CHALLENGE',
  '5123456789012346': 'FRICTIONLESS_Y',
  '5555555555000018': 'FRICTIONLESS_Y',
  '4440000042200014': 'FRICTIONLESS_Y',
  '371881887105009': 'FRICTIONLESS_Y',
  '5500005555555559': 'FRICTIONLESS_A',
  '4440000042200022': 'FRICTIONLESS_A',
  '5506900140100503': 'FRICTIONLESS_R',
};

const isProfile = (value: string): value is Profile =>
  (Object.values(PROFILES) as string[]).includes(value);

/**
 * Answers per the behaviour notes' 3-D Secure test cards. Decided here: any other card (the
 * notes' 5123459999998221 among them) is not enrolled, so authentication is unavailable; a
 * CHALLENGE_MANDATED preference turns a frictionless success into a challenge; with no payer
 * present (MERCHANT_REQUESTED) no challenge can be shown, so a challenge card fails (N).
 * Identifiers derive from the transaction's ids, so the same transaction always gets the same.
 */
export class SimulatedAuthenticationServer implements AuthenticationServer {
  lookup(request: LookupRequest): LookupAnswer {
    const profile = PROFILES[request.cardNumber];
    return profile
      ? { status: 'AUTHENTICATION_AVAILABLE', version: '3DS2', acsReference: profile }
      : { status: 'AUTHENTICATION_UNAVAILABLE', version: 'NONE' };
  }

  authenticate(request: PayerAuthenticationRequest): PayerAuthenticationResponse {
    const profile = isProfile(request.acsReference) ? request.acsReference : 'FRICTIONLESS_R';
    const ids = identifiers(request);
    const noPayer = request.channel === 'MERCHANT_REQUESTED';
    const wantsChallenge =
      profile === 'CHALLENGE' ||
      (profile === 'FRICTIONLESS_Y' && request.challengePreference === 'CHALLENGE_MANDATED');
    if (wantsChallenge && noPayer)
      return { kind: 'result', result: result('N', ids, { statusReasonCode: '01' }) };
    if (wantsChallenge) {
      const cReq = Buffer.from(
        JSON.stringify({
          threeDSServerTransID: ids.serverTransactionId,
          acsTransID: ids.acsTransactionId,
          challengeWindowSize: '05',
          messageType: 'CReq',
          messageVersion: '2.2.0',
        }),
      ).toString('base64url');
      return { kind: 'challenge', acsTransactionId: ids.acsTransactionId, cReq };
    }
    const transStatus =
      profile === 'FRICTIONLESS_A' ? 'A' : profile === 'FRICTIONLESS_R' ? 'R' : 'Y';
    return {
      kind: 'result',
      result: result(transStatus, ids, transStatus === 'R' ? { statusReasonCode: '11' } : {}),
    };
  }

  completeChallenge(request: ChallengeCompletion): ThreeDsResult {
    const ids = identifiers(request);
    switch (request.choice) {
      case 'success':
        return result('Y', ids);
      case 'failure':
        return result('N', ids, { statusReasonCode: '01' });
      case 'cancel':
        return result('N', ids, { statusReasonCode: '01', challengeCancelled: true });
    }
  }
}

interface Identifiers {
  readonly serverTransactionId: string;
  readonly acsTransactionId: string;
  readonly dsTransactionId: string;
  readonly token: string;
}

function identifiers(request: {
  merchantId: string;
  orderId: string;
  transactionId: string;
}): Identifiers {
  const digest = createHash('sha256')
    .update([request.merchantId, request.orderId, request.transactionId].join('\0'))
    .digest();
  const uuid = (offset: number) => {
    const hex = digest.subarray(offset, offset + 16).toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  };
  return {
    serverTransactionId: uuid(0),
    acsTransactionId: uuid(8),
    dsTransactionId: uuid(16),
    // 20 bytes → 28 base64 characters (spec: authenticationToken is 28 or 32 long).
    token: digest.subarray(12, 32).toString('base64'),
  };
}

const STATUS = {
  Y: 'AUTHENTICATION_SUCCESSFUL',
  A: 'AUTHENTICATION_ATTEMPTED',
  N: 'AUTHENTICATION_FAILED',
  R: 'AUTHENTICATION_REJECTED',
} as const;

/** ECI 02/01 say authenticated/attempted; no token comes with a failure. */
function result(
  transactionStatus: keyof typeof STATUS,
  ids: Identifiers,
  extra: Partial<ThreeDsResult> = {},
): ThreeDsResult {
  const proven = transactionStatus === 'Y' || transactionStatus === 'A';
  return {
    status: STATUS[transactionStatus],
    transactionStatus,
    ...(proven
      ? { acsEci: transactionStatus === 'Y' ? '02' : '01', authenticationToken: ids.token }
      : {}),
    acsTransactionId: ids.acsTransactionId,
    dsTransactionId: ids.dsTransactionId,
    ...extra,
  };
}
