import type {
  AuthenticationStatus,
  AuthenticationVersion,
  ThreeDsResult,
} from '../../../domain/src/order/authentication.types';

/**
 * The 3-D Secure port: the directory server and the issuers' access control servers (ACS) behind
 * it. The gateway plays the 3-D Secure server; a real link would implement this interface.
 */
export interface AuthenticationServer {
  lookup(request: LookupRequest): LookupAnswer;
  authenticate(request: PayerAuthenticationRequest): PayerAuthenticationResponse;
  completeChallenge(request: ChallengeCompletion): ThreeDsResult;
}

interface Ids {
  readonly merchantId: string;
  readonly orderId: string;
  readonly transactionId: string;
}

export interface LookupRequest extends Ids {
  /** The full number: in memory for this call only, never recorded. */
  readonly cardNumber: string;
}

export interface LookupAnswer {
  readonly status: Extract<
    AuthenticationStatus,
    'AUTHENTICATION_AVAILABLE' | 'AUTHENTICATION_UNAVAILABLE'
  >;
  readonly version: AuthenticationVersion;
  /** The server's handle for the later steps; safe to record (it holds no card data). */
  readonly acsReference?: string;
}

export interface PayerAuthenticationRequest extends Ids {
  readonly acsReference: string;
  /** PAYER_BROWSER or MERCHANT_REQUESTED (no payer present). */
  readonly channel?: string;
  readonly challengePreference?: string;
}

export type PayerAuthenticationResponse =
  | { readonly kind: 'result'; readonly result: ThreeDsResult }
  | { readonly kind: 'challenge'; readonly acsTransactionId: string; readonly cReq: string };

export type PayerChoice = 'success' | 'failure' | 'cancel';

export interface ChallengeCompletion extends Ids {
  readonly acsReference: string;
  readonly choice: PayerChoice;
}
