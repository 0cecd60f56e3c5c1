/** Spec, States: order.authenticationStatus and transaction.authenticationStatus. */
export type AuthenticationStatus =
  | 'AUTHENTICATION_ATTEMPTED'
  | 'AUTHENTICATION_AVAILABLE'
  | 'AUTHENTICATION_EXEMPT'
  | 'AUTHENTICATION_FAILED'
  | 'AUTHENTICATION_NOT_IN_EFFECT'
  | 'AUTHENTICATION_NOT_SUPPORTED'
  | 'AUTHENTICATION_PENDING'
  | 'AUTHENTICATION_REJECTED'
  | 'AUTHENTICATION_REQUIRED'
  | 'AUTHENTICATION_SUCCESSFUL'
  | 'AUTHENTICATION_UNAVAILABLE';

export type GatewayRecommendation = 'PROCEED' | 'DO_NOT_PROCEED';
export type AuthenticationVersion = '3DS2' | 'NONE';

/** EMV 3-D Secure transStatus: Y authenticated, A attempted, N not authenticated, R rejected, U unavailable. */
export type TransStatus = 'Y' | 'A' | 'N' | 'R' | 'U';

/** What the access control server concluded: the proof a later payment carries. */
export interface ThreeDsResult {
  readonly status: AuthenticationStatus;
  readonly transactionStatus: TransStatus;
  readonly statusReasonCode?: string;
  readonly acsEci?: string;
  readonly authenticationToken?: string;
  readonly acsTransactionId: string;
  readonly dsTransactionId: string;
  /** The payer cancelled the challenge (EMV challengeCancel). */
  readonly challengeCancelled?: boolean;
}

/** AES-256-GCM ciphertext under the payment session's key (spec, encryptedData); opaque to the domain. */
export interface EncryptedData {
  readonly ciphertext: string;
  readonly nonce: string;
  readonly tag: string;
}

/** Where the payer's browser is sent for a challenge (the CUSTOMIZED redirect model). */
export interface Challenge {
  readonly acsUrl: string;
  readonly cReq: string;
}

/** The 3-D Secure side of an AUTHENTICATION transaction, as it stands after each step. */
export interface AuthenticationRecord {
  readonly status: AuthenticationStatus;
  readonly version: AuthenticationVersion;
  readonly gatewayRecommendation: GatewayRecommendation;
  /** The authentication server's handle on this authentication, for the steps after the lookup. */
  readonly acsReference?: string;
  /** The payment session whose key encrypts encryptedData. */
  readonly sessionId?: string;
  /** authentication.* request fields as sent (channel, acceptVersions, redirectResponseUrl, psd2, …). */
  readonly request: Readonly<Record<string, unknown>>;
  readonly payerInteraction?: 'REQUIRED' | 'NOT_REQUIRED';
  readonly challenge?: Challenge;
  readonly result?: ThreeDsResult;
  readonly encryptedData?: EncryptedData;
}

/** What an AUTHORIZE or PAY citing authentication.transactionId carries from it. */
export interface AuthenticationProof {
  readonly transactionId: string;
  readonly status: AuthenticationStatus;
  readonly version: AuthenticationVersion;
  readonly result?: ThreeDsResult;
}

/** Which order.status an authentication leaves when no money has moved (spec, States). */
export function orderStatusOfAuthentication(
  status: AuthenticationStatus,
): 'AUTHENTICATION_INITIATED' | 'AUTHENTICATED' | 'AUTHENTICATION_UNSUCCESSFUL' {
  switch (status) {
    case 'AUTHENTICATION_AVAILABLE':
    case 'AUTHENTICATION_PENDING':
    case 'AUTHENTICATION_REQUIRED':
      return 'AUTHENTICATION_INITIATED';
    case 'AUTHENTICATION_SUCCESSFUL':
    case 'AUTHENTICATION_ATTEMPTED':
    case 'AUTHENTICATION_EXEMPT':
      return 'AUTHENTICATED';
    default:
      return 'AUTHENTICATION_UNSUCCESSFUL';
  }
}

/** Issuer's word against proceeding: a payment citing it is not sent to the acquirer. */
export function forbidsPayment(status: AuthenticationStatus): boolean {
  return status === 'AUTHENTICATION_FAILED' || status === 'AUTHENTICATION_REJECTED';
}
