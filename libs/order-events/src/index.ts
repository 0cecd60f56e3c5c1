export * from './order-event.envelope';
export * from './order-event-bus.port';
export * from './backoff';
export * from './in-process-order-event.bus';
