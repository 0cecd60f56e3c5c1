import { authenticatePayerDecider } from './authenticate-payer.decide';
import { authorizeDecider } from './authorize.decide';
import { captureDecider } from './capture.decide';
import { payerChallengeResultDecider } from './payer-challenge-result.decide';
import { confirmBrowserPaymentDecider } from './confirm-browser-payment.decide';
import { initiateAuthenticationDecider } from './initiate-authentication.decide';
import { initiateBrowserPaymentDecider } from './initiate-browser-payment.decide';
import type { DeciderRegistry } from './operation-decider';
import { payDecider } from './pay.decide';
import { payerRedirectedToProviderDecider } from './payer-redirected-to-provider.decide';
import { refundDecider } from './refund.decide';
import { updateAuthorizationDecider } from './update-authorization.decide';
import { payerReturnedFromProviderDecider } from './payer-returned-from-provider.decide';
import { verifyDecider } from './verify.decide';
import { voidDecider } from './void.decide';

/**
 * The decider branch of every request, by apiOperation (the payer's steps by the apiOperation
 * their events are recorded under): adding an operation adds a file and a line here.
 */
export const DECIDERS: DeciderRegistry = {
  AUTHORIZE: authorizeDecider,
  PAY: payDecider,
  VERIFY: verifyDecider,
  CAPTURE: captureDecider,
  UPDATE_AUTHORIZATION: updateAuthorizationDecider,
  REFUND: refundDecider,
  VOID: voidDecider,
  INITIATE_AUTHENTICATION: initiateAuthenticationDecider,
  AUTHENTICATE_PAYER: authenticatePayerDecider,
  PAYER_CHALLENGE_RESULT: payerChallengeResultDecider,
  INITIATE_BROWSER_PAYMENT: initiateBrowserPaymentDecider,
  PAYER_REDIRECTED_TO_PROVIDER: payerRedirectedToProviderDecider,
  PAYER_RETURNED_FROM_PROVIDER: payerReturnedFromProviderDecider,
  CONFIRM_BROWSER_PAYMENT: confirmBrowserPaymentDecider,
};
