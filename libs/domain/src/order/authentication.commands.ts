import type { Thousandths } from '../money';
import type {
  AuthenticationStatus,
  AuthenticationVersion,
  Challenge,
  EncryptedData,
  ThreeDsResult,
} from './authentication.types';
import type { PayerStepBase, RequestBase } from './order.commands';
import type { RecordedSourceOfFunds } from './order.types';

/** INITIATE_AUTHENTICATION: opens an AUTHENTICATION transaction for a card. */
export interface InitiateAuthentication extends RequestBase {
  readonly type: 'INITIATE_AUTHENTICATION';
  readonly currency: string;
  readonly sourceOfFunds: RecordedSourceOfFunds;
  readonly sessionId?: string;
  /** authentication.* as sent: acceptVersions, channel, purpose. */
  readonly authentication: Readonly<Record<string, unknown>>;
}

/** The authentication server's answer to the lookup: is the card enrolled, in which version. */
export interface AuthenticationLookup {
  readonly status: Extract<
    AuthenticationStatus,
    'AUTHENTICATION_AVAILABLE' | 'AUTHENTICATION_UNAVAILABLE'
  >;
  readonly version: AuthenticationVersion;
  readonly acsReference?: string;
}

/** AUTHENTICATE_PAYER: continues the AUTHENTICATION transaction of the same ids. */
export interface AuthenticatePayer extends RequestBase {
  readonly type: 'AUTHENTICATE_PAYER';
  readonly amount: Thousandths;
  readonly currency: string;
  readonly sessionId?: string;
  /** The card, when the request (or its session) names one: it must be the card initiated. */
  readonly card?: { readonly number: string; readonly fingerprint?: string };
  /** authentication.* as sent: redirectResponseUrl, channel, challengePreference, psd2, … */
  readonly authentication: Readonly<Record<string, unknown>>;
}

/** A frictionless result at once, or a challenge for the payer. */
export type PayerAuthenticationAnswer =
  | {
      readonly kind: 'result';
      readonly result: ThreeDsResult;
      readonly encryptedData?: EncryptedData;
    }
  | { readonly kind: 'challenge'; readonly challenge: Challenge };

/** The payer's choice on the ACS challenge page. */
export interface CompleteChallenge extends PayerStepBase {
  readonly type: 'PAYER_CHALLENGE_RESULT';
}

export interface ChallengeAnswer {
  readonly result: ThreeDsResult;
  readonly encryptedData?: EncryptedData;
}
