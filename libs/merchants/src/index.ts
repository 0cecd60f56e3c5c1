/**
 * The merchants file and the merchants it names: parsing and checking it, password hashes,
 * client-certificate matching, authentication, and reloading on SIGHUP. Read by the gateway and
 * the standalone webhook dispatcher (a notification's secret).
 */
export * from './merchant-registry';
export * from './password-hash';
export * from './certificate-match';
export * from './reload-on-hangup';
