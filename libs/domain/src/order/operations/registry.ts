import { authenticatePayerDecider } from './authenticate-payer.decide';
import { authorizeDecider } from './authorize.decide';
import { captureDecider } from './capture.decide';
import { completeChallengeDecider } from './complete-challenge.decide';
import { confirmBrowserPaymentDecider } from './confirm-browser-payment.decide';
import { initiateAuthenticationDecider } from './initiate-authentication.decide';
import { initiateBrowserPaymentDecider } from './initiate-browser-payment.decide';
import type { DeciderRegistry } from './operation-decider';
import { payDecider } from './pay.decide';
import { redirectToProviderDecider } from './redirect-to-provider.decide';
import { refundDecider } from './refund.decide';
import { returnFromProviderDecider } from './return-from-provider.decide';
import { verifyDecider } from './verify.decide';
import { voidDecider } from './void.decide';

/** The decider branch of every request: adding an operation adds a file and a line here. */
export const DECIDERS: DeciderRegistry = {
  Authorize: authorizeDecider,
  Pay: payDecider,
  Verify: verifyDecider,
  Capture: captureDecider,
  Refund: refundDecider,
  Void: voidDecider,
  InitiateAuthentication: initiateAuthenticationDecider,
  AuthenticatePayer: authenticatePayerDecider,
  CompleteChallenge: completeChallengeDecider,
  InitiateBrowserPayment: initiateBrowserPaymentDecider,
  RedirectToProvider: redirectToProviderDecider,
  ReturnFromProvider: returnFromProviderDecider,
  ConfirmBrowserPayment: confirmBrowserPaymentDecider,
};
