/** Injection tokens for the ports the application is wired to. */
export const EVENT_STORE = Symbol('EventStore');
export const ACQUIRER = Symbol('Acquirer');
/** Who quotes currency conversion for Payment Options Inquiry (libs/acquirer). */
export const CURRENCY_CONVERSION = Symbol('CurrencyConversion');
export const AUTHENTICATION_SERVER = Symbol('AuthenticationServer');
export const SESSION_STORE = Symbol('SessionStore');
export const MERCHANT_REGISTRY = Symbol('MerchantRegistry');
export const GATEWAY_CONFIG = Symbol('GatewayConfig');
export const CLOCK = Symbol('Clock');
export const ORDER_SUMMARIES = Symbol('OrderSummaryReadModel');
/** The keys kept in the data directory (config/data-dir-keys.ts). */
export const DATA_DIR_KEYS = Symbol('DataDirKeys');

/** Time is passed in, never read inside the domain. */
export type Clock = () => Date;

/** The order event bus (libs/order-events): the relay publishes, the webhook dispatcher consumes. */
export const ORDER_EVENT_PUBLISHER = Symbol('OrderEventPublisher');
export const ORDER_EVENT_CONSUMER = Symbol('OrderEventConsumer');
/** The gateway's pino logger (libs/logging). */
export const LOGGER = Symbol('Logger');
/** The consumers of committed order events (consumers/consumers.host.ts). */
export const CONSUMERS = Symbol('Consumers');
/** The webhook delivery store, whose API the gateway serves wherever the dispatcher runs. */
export const WEBHOOK_DELIVERIES = Symbol('WebhookDeliveries');
