/**
 * The request contract of the Payment Gateway Transaction API: one declarative contract per
 * operation and version (plain data, see model/field.ts) and the validation derived from it.
 */
export * from './api-error';
export {
  browserPaymentProviders,
  PAYMENT_OPTIONS_INQUIRY,
  paymentOptionsInquiryContract,
  validatePaymentOptionsInquiry,
} from './payment-options/payment-options-inquiry.contract';
export type {
  ApiOperation,
  ArrayField,
  CrossCheck,
  Field,
  Fields,
  GroupField,
  LeafField,
  LeafKind,
  LeafRule,
  MapField,
  OperationContract,
} from './model/field';
export type { RequestValidator, ValidatorEngine, Violation } from './engine/request-validator';
export {
  allContracts,
  API_OPERATIONS,
  isApiOperation,
  isSupportedVersion,
  MAX_VERSION,
  MIN_VERSION,
  resolveContract,
} from './operations/registry';
export {
  hasSourceOfFunds,
  isJsonObject,
  malformedField,
  validateBody,
  validateRequest,
  type BodyError,
  type RequestError,
  type ValidationResult,
} from './validate';
export {
  CARD_DATA_EXEMPT_FIELDS,
  cardNumberRefusal,
  findCardNumberIn,
  findEmbeddedCardNumber,
} from './card-data-guard';
export { citedQuote, refusedQuote } from './currency-conversion-quote';
export { buildOpenApiDocument, type OpenApiOptions } from './openapi/document';
export { responseSchemas } from './openapi/response-schemas';
export { updateSessionContract, validateSessionUpdate } from './session/update-session.contract';
export { createSessionContract, validateSessionCreate } from './session/create-session.contract';
export {
  CHECKOUT_OPERATIONS,
  checkoutContractAt,
  checkoutOperationAt,
  createCheckoutSessionContract,
  initiateCheckoutContract,
  type CheckoutOperation,
} from './session/checkout-session.contract';
export { jsonShapeError, MAX_LIST_ELEMENTS, scanJsonShape, type JsonShape } from './json-shape';
export { numbersAsWrittenIn, withNumberLiterals } from './number-literals';
export {
  saveCardContract,
  validateSaveCard,
  VERIFICATION_STRATEGIES,
  type VerificationStrategy,
} from './token/save-card.contract';
