import { authenticatePayer } from './authenticate-payer/authenticate-payer.slice';
import { authorize } from './authorize/authorize.slice';
import { capture } from './capture/capture.slice';
import { confirmBrowserPayment } from './confirm-browser-payment/confirm-browser-payment.slice';
import { initiateAuthentication } from './initiate-authentication/initiate-authentication.slice';
import { initiateBrowserPayment } from './initiate-browser-payment/initiate-browser-payment.slice';
import { pay } from './pay/pay.slice';
import { payerChallengeResult } from './payer-challenge-result/payer-challenge-result.slice';
import { payerRedirectedToProvider } from './payer-redirected-to-provider/payer-redirected-to-provider.slice';
import { payerReturnedFromProvider } from './payer-returned-from-provider/payer-returned-from-provider.slice';
import { refund } from './refund/refund.slice';
import type { OperationRegistry, PayerStepRegistry } from './slice';
import { updateAuthorization } from './update-authorization/update-authorization.slice';
import { verify } from './verify/verify.slice';
import { voidTransaction } from './void/void.slice';

/** Every merchant operation, by apiOperation. Adding one: its folder, and a line here. */
export const OPERATIONS: OperationRegistry = {
  AUTHORIZE: authorize,
  PAY: pay,
  CAPTURE: capture,
  UPDATE_AUTHORIZATION: updateAuthorization,
  REFUND: refund,
  VOID: voidTransaction,
  VERIFY: verify,
  INITIATE_AUTHENTICATION: initiateAuthentication,
  AUTHENTICATE_PAYER: authenticatePayer,
  INITIATE_BROWSER_PAYMENT: initiateBrowserPayment,
  CONFIRM_BROWSER_PAYMENT: confirmBrowserPayment,
};

/** Every step the payer takes on the gateway's pages, by the page's step. */
export const PAYER_STEPS: PayerStepRegistry = {
  challenge: payerChallengeResult,
  redirect: payerRedirectedToProvider,
  return: payerReturnedFromProvider,
};
