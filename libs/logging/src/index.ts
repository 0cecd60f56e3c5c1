/** The JSON log every process writes, with secrets and card numbers taken out of every line. */
export * from './logger';
export * from './redaction';
