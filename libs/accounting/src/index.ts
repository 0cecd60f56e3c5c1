export * from './accounts';
export * from './entry';
export * from './fact-time';
export * from './postings';
