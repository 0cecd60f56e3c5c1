export * from './public-order-event';
export * from './order-event-bus.port';
export * from './backoff';
export * from './in-process-order-event.bus';
export * from './kafka/kafka-client';
export * from './kafka/kafka-order-event.record';
export * from './kafka/kafka-order-event.publisher';
export * from './kafka/kafka-order-event.consumer';
