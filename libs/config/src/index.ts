/**
 * Environment settings that more than one app reads (the gateway, the standalone webhook
 * dispatcher, the ledger CLI), validated by one set of rules: where order events live, the bus,
 * the log level, and the error listing every problem at once.
 */
export * from './config-error';
export * from './log-level';
export * from './bus.config';
export * from './event-store.config';
export * from './loopback';
