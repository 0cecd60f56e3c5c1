import { isEncodedHash, merchantIdProblem } from '@gateway/merchants';
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';

export const ROLES = ['merchant', 'finance', 'operator'] as const;
export type Role = (typeof ROLES)[number];

/** A console user: a merchant user sees its merchant only; finance every merchant, read-only. */
export interface ConsoleUser {
  readonly username: string;
  readonly role: Role;
  /** The merchant a merchant user belongs to; absent for finance and operators. */
  readonly merchantId?: string;
  /** scrypt, the merchants file's format (libs/merchants/password-hash.ts). */
  readonly passwordHash: string;
}

export class UsersFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsersFileError';
  }
}

/** The file the console and the CLI use unless told otherwise. */
export function defaultUsersFile(env = process.env, cwd = process.cwd()): string {
  const file = env.CONSOLE_USERS_FILE || 'config/console-users.json';
  return isAbsolute(file) ? file : resolve(cwd, file);
}

const USERNAME = /^[0-9A-Za-z._@-]{1,64}$/;

/** A name the users file may hold: sign-in and the audit take no other text as a user name. */
export const isUsername = (text: unknown): text is string =>
  typeof text === 'string' && USERNAME.test(text);

const FIELDS = new Set(['username', 'role', 'merchantId', 'passwordHash']);

/** The users of a parsed file, or every problem it has at once. */
export function parseUsers(document: unknown, file: string): ConsoleUser[] {
  const users = (document as { users?: unknown } | null)?.users;
  if (!Array.isArray(users)) throw new UsersFileError(`${file}: expected { "users": [ … ] }`);
  const problems: string[] = [];
  const seen = new Set<string>();
  users.forEach((entry: Record<string, unknown>, i) => {
    const at = `users[${i}]`;
    if (typeof entry !== 'object' || entry === null) return problems.push(`${at} is not an object`);
    for (const key of Object.keys(entry))
      if (!FIELDS.has(key)) problems.push(`${at}.${key} is not a field of a console user`);
    const { username, role, merchantId, passwordHash } = entry;
    if (!isUsername(username))
      problems.push(`${at}.username must be 1-64 characters from 0-9 a-z A-Z . _ @ -`);
    else if (seen.has(username)) problems.push(`${at}.username '${username}' appears twice`);
    else seen.add(username);
    if (!ROLES.includes(role as Role))
      problems.push(`${at}.role must be one of ${ROLES.join(', ')}`);
    if (role === 'merchant') {
      const problem =
        typeof merchantId === 'string' ? merchantIdProblem(merchantId) : 'merchantId is missing';
      if (problem) problems.push(`${at}: a merchant user needs its merchant: ${problem}`);
    } else if (merchantId !== undefined)
      problems.push(`${at}.merchantId is only for the merchant role`);
    if (typeof passwordHash !== 'string' || !isEncodedHash(passwordHash))
      problems.push(
        `${at}.passwordHash is not a scrypt hash (add users with npm run console-user)`,
      );
  });
  if (problems.length) throw new UsersFileError(`${file}:\n  - ${problems.join('\n  - ')}`);
  return users as ConsoleUser[];
}

export function readUsersDocument(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsersFileError(`Cannot read console users file ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsersFileError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * The users file, read again whenever it changed on disk (the CLI replaces it), so a user removed
 * or changed is signed out at their next request, with no restart. A file broken meanwhile keeps
 * the users read last, and says so once.
 */
export class ConsoleUsers {
  private users = new Map<string, ConsoleUser>();
  private version = '';

  constructor(
    private readonly file: string,
    private readonly warn: (message: string) => void = console.error,
  ) {
    this.load(true);
  }

  find(username: string): ConsoleUser | undefined {
    this.load(false);
    return this.users.get(username);
  }

  private load(first: boolean): void {
    let version: string;
    try {
      const stat = statSync(this.file);
      version = `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
    } catch (error) {
      if (first) throw new UsersFileError(`Cannot read console users file ${this.file}`);
      version = `missing:${(error as Error).message}`;
    }
    if (version === this.version) return;
    this.version = version;
    try {
      const users = parseUsers(readUsersDocument(this.file), this.file);
      this.users = new Map(users.map((user) => [user.username, user]));
    } catch (error) {
      if (first) throw error;
      this.warn(`console users file not reloaded: ${(error as Error).message}`);
    }
  }
}
