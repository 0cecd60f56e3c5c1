/**
 * The merchants file and the merchants it names: parsing and checking it, password hashes,
 * client-certificate matching, authentication, the password lockout, and reloading on SIGHUP. Read
 * by the gateway, the standalone webhook dispatcher (a notification's secret) and the console (its
 * users' password hashes and the same lockout).
 */
export * from './merchant-registry';
export * from './password-hash';
export * from './certificate-match';
export * from './reload-on-hangup';
export * from './auth-lockout';
export * from './write-atomically';
