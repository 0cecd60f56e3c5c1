import {
  resultOf,
  type AuthenticationProof,
  type AuthenticationRecord,
  type EncryptedData,
  type ThreeDsResult,
  type TransactionState,
} from '@gateway/domain';
import { html } from './html';
import { autoPostForm } from './auto-post-form';

type Json = Record<string, unknown>;

/** The form fields the payer's browser posts to redirectResponseUrl (behaviour notes, step 3). */
export function redirectResponseFields(
  orderId: string,
  tx: Pick<TransactionState, 'id' | 'gatewayCode'>,
  authentication: AuthenticationRecord,
): Record<string, string> {
  return {
    'order.id': orderId,
    'transaction.id': tx.id,
    result: resultOf(tx.gatewayCode),
    'response.gatewayRecommendation': authentication.gatewayRecommendation,
    ...(authentication.encryptedData ? encryptedFields(authentication.encryptedData) : {}),
  };
}

function encryptedFields(data: EncryptedData): Record<string, string> {
  return {
    'encryptedData.ciphertext': data.ciphertext,
    'encryptedData.nonce': data.nonce,
    'encryptedData.tag': data.tag,
  };
}

/**
 * The authentication group of an AUTHENTICATION transaction's response. redirectHtml is always
 * there once the payer step ran (spec: one code path for all cases): with a challenge it posts the
 * payer to the ACS page; without one it posts the result straight to redirectResponseUrl.
 */
export function renderAuthentication(orderId: string, tx: TransactionState): Json {
  const a = tx.authentication as AuthenticationRecord;
  const { '3ds2': sentThreeDs2, ...sent } = a.request as Json;
  const redirectUrl =
    typeof sent.redirectResponseUrl === 'string' ? sent.redirectResponseUrl : undefined;
  const redirectHtml = a.challenge
    ? html`<div id="threedsChallengeRedirect" style="height: 100vh">
        ${autoPostForm(
          'threedsChallengeRedirectForm',
          a.challenge.acsUrl,
          { creq: a.challenge.cReq },
          'Continue to your card issuer',
        )}
      </div>`.value
    : a.result && redirectUrl
      ? html`<div id="threedsFrictionlessRedirect">
          ${autoPostForm(
            'redirectToMerchantForm',
            redirectUrl,
            redirectResponseFields(orderId, tx, a),
            'Continue',
          )}
        </div>`.value
      : undefined;
  const threeDs2 = {
    ...(sentThreeDs2 as Json | undefined),
    ...(a.result ? threeDs2Of(a.result) : {}),
  };
  return {
    ...sent,
    ...(a.result ? { '3ds': threeDsOf(a.result) } : {}),
    ...(Object.keys(threeDs2).length ? { '3ds2': threeDs2 } : {}),
    ...(a.payerInteraction ? { payerInteraction: a.payerInteraction } : {}),
    ...(a.challenge
      ? {
          redirect: {
            customized: { '3DS': { acsUrl: a.challenge.acsUrl, cReq: a.challenge.cReq } },
            domainName: new URL(a.challenge.acsUrl).hostname,
          },
        }
      : {}),
    ...(redirectHtml ? { redirectHtml } : {}),
    version: a.version,
  };
}

/** What AUTHORIZE or PAY shows of the authentication it cited. */
export function renderProof(proof: AuthenticationProof): Json {
  return {
    ...(proof.result ? { '3ds': threeDsOf(proof.result), '3ds2': threeDs2Of(proof.result) } : {}),
    transactionId: proof.transactionId,
    version: proof.version,
  };
}

function threeDsOf(result: ThreeDsResult): Json {
  return {
    ...(result.acsEci !== undefined ? { acsEci: result.acsEci } : {}),
    ...(result.authenticationToken !== undefined
      ? { authenticationToken: result.authenticationToken }
      : {}),
    transactionId: result.acsTransactionId,
  };
}

function threeDs2Of(result: ThreeDsResult): Json {
  return {
    dsTransactionId: result.dsTransactionId,
    ...(result.statusReasonCode !== undefined ? { statusReasonCode: result.statusReasonCode } : {}),
    transactionStatus: result.transactionStatus,
  };
}
