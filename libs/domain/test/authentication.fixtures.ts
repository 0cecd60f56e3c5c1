import type {
  AuthenticationCommand,
  AuthenticationRecord,
  OrderEvent,
  ThreeDsResult,
  TransactionRevision,
} from '@gateway/domain';
import { at, card, T0 } from './order.fixtures';

/** Builders for the 3-D Secure steps; every value is explicit data. */
const ids = { merchantId: 'TESTM', orderId: 'o-1', apiVersion: 100, echo: {} };
const asked = { acceptVersions: '3DS2', channel: 'PAYER_BROWSER' };
const payerAsked = { redirectResponseUrl: 'https://shop.example/3ds' };
export const challenge = { acsUrl: 'https://gw.example/payer/acs/tok', cReq: 'eyJ9' };

export const threeDs = (
  status: ThreeDsResult['status'],
  transactionStatus: ThreeDsResult['transactionStatus'],
  extra: Partial<ThreeDsResult> = {},
): ThreeDsResult => ({
  status,
  transactionStatus,
  acsTransactionId: 'acs-1',
  dsTransactionId: 'ds-1',
  ...extra,
});
export const successful = threeDs('AUTHENTICATION_SUCCESSFUL', 'Y', {
  acsEci: '02',
  authenticationToken: 'kHyn+7YFi1EUAREAAAAvNUe6Hv8=',
});
export const encrypted = { ciphertext: 'c2VjcmV0', nonce: 'AAAAAAAAAAAAAAAA', tag: 'x'.repeat(24) };

export const initiate = (
  lookup: 'AUTHENTICATION_AVAILABLE' | 'AUTHENTICATION_UNAVAILABLE' = 'AUTHENTICATION_AVAILABLE',
  transactionId = 'a1',
): AuthenticationCommand => ({
  ...ids,
  type: 'INITIATE_AUTHENTICATION',
  transactionId,
  currency: 'USD',
  sourceOfFunds: card,
  sessionId: 'SESSION0001',
  authentication: asked,
  now: T0,
  requestHash: `h-${transactionId}`,
  outcome: {
    status: lookup,
    version: lookup === 'AUTHENTICATION_AVAILABLE' ? '3DS2' : 'NONE',
    ...(lookup === 'AUTHENTICATION_AVAILABLE' ? { acsReference: 'CHALLENGE' } : {}),
  },
});

export const authenticatePayer = (
  outcome: Extract<AuthenticationCommand, { type: 'AUTHENTICATE_PAYER' }>['outcome'],
  extra: Partial<Extract<AuthenticationCommand, { type: 'AUTHENTICATE_PAYER' }>> = {},
): AuthenticationCommand => ({
  ...ids,
  type: 'AUTHENTICATE_PAYER',
  transactionId: 'a1',
  amount: 25_000,
  currency: 'USD',
  authentication: payerAsked,
  now: at(1),
  requestHash: 'h-a1-payer',
  outcome,
  ...extra,
});

export const completeChallenge = (result: ThreeDsResult): AuthenticationCommand => ({
  merchantId: 'TESTM',
  orderId: 'o-1',
  transactionId: 'a1',
  type: 'PAYER_CHALLENGE_RESULT',
  now: at(2),
  outcome: { result, encryptedData: encrypted },
});

export const lookedUp: AuthenticationRecord = {
  status: 'AUTHENTICATION_AVAILABLE',
  version: '3DS2',
  gatewayRecommendation: 'PROCEED',
  acsReference: 'CHALLENGE',
  sessionId: 'SESSION0001',
  request: asked,
};

export const initiated = (record: AuthenticationRecord = lookedUp): OrderEvent => ({
  type: 'AuthenticationInitiated',
  data: {
    id: 'a1',
    type: 'AUTHENTICATION',
    amount: 0,
    currency: 'USD',
    gatewayCode: 'APPROVED',
    processor: {},
    echo: {},
    timeOfRecord: T0,
    apiVersion: 100,
    requestHash: 'h-a1',
    sourceOfFunds: card,
    authentication: record,
  },
});

/** The AUTHENTICATE_PAYER step as recorded. */
export const payerStep = (
  type: 'PayerAuthenticationStarted' | 'PayerAuthenticated',
  data: Omit<
    TransactionRevision,
    'transactionId' | 'time' | 'requestHash' | 'apiVersion' | 'amount' | 'echo'
  >,
): OrderEvent => ({
  type,
  data: {
    transactionId: 'a1',
    time: at(1),
    requestHash: 'h-a1-payer',
    apiVersion: 100,
    amount: 25_000,
    echo: {},
    ...data,
  },
});

export const started = payerStep('PayerAuthenticationStarted', {
  gatewayCode: 'PENDING',
  authentication: {
    ...lookedUp,
    request: { ...lookedUp.request, ...payerAsked },
    status: 'AUTHENTICATION_PENDING',
    payerInteraction: 'REQUIRED',
    challenge,
  },
});

/** The challenge's result as recorded. */
export const challengeCompleted = (
  result: ThreeDsResult,
  gatewayCode: 'APPROVED' | 'DECLINED' | 'ABORTED',
): OrderEvent => ({
  type: 'PayerAuthenticated',
  data: {
    transactionId: 'a1',
    time: at(2),
    gatewayCode,
    authentication: {
      ...lookedUp,
      request: { ...lookedUp.request, ...payerAsked },
      status: result.status,
      payerInteraction: 'REQUIRED',
      challenge,
      result,
      gatewayRecommendation: gatewayCode === 'APPROVED' ? 'PROCEED' : 'DO_NOT_PROCEED',
      encryptedData: encrypted,
    },
  },
});
