import { generatePassword, hashPassword, writeAtomically } from '@gateway/merchants';
import { existsSync } from 'node:fs';
import {
  parseUsers,
  readUsersDocument,
  UsersFileError,
  type ConsoleUser,
  type Role,
} from '../users/console-users';

type UsersDocument = { users: Record<string, unknown>[] };

/** The file as it stands; one the console would not load is refused, never extended. */
function read(file: string, missingIsEmpty: boolean): UsersDocument {
  const document = missingIsEmpty && !existsSync(file) ? { users: [] } : readUsersDocument(file);
  parseUsers(document, file);
  return document as UsersDocument;
}

/** Checks the edited document as the console will, then replaces the file with it. */
function save(file: string, document: UsersDocument): void {
  parseUsers(document, file);
  writeAtomically(file, `${JSON.stringify(document, null, 2)}\n`);
}

function indexOf(document: UsersDocument, username: string, file: string): number {
  const at = document.users.findIndex((user) => user.username === username);
  if (at < 0) throw new UsersFileError(`${file} has no user '${username}'`);
  return at;
}

/** A new user with a new password, returned once (only its hash is kept). */
export async function addUser(
  file: string,
  user: Pick<ConsoleUser, 'username' | 'role' | 'merchantId'>,
): Promise<string> {
  const document = read(file, true);
  if (document.users.some((entry) => entry.username === user.username))
    throw new UsersFileError(`${file} already has a user '${user.username}'`);
  const password = generatePassword();
  document.users.push({
    username: user.username,
    role: user.role satisfies Role,
    ...(user.merchantId !== undefined ? { merchantId: user.merchantId } : {}),
    passwordHash: await hashPassword(password),
  });
  save(file, document);
  return password;
}

/** A new password for the user, returned once. */
export async function setPassword(file: string, username: string): Promise<string> {
  const document = read(file, false);
  const at = indexOf(document, username, file);
  const password = generatePassword();
  document.users[at] = { ...document.users[at], passwordHash: await hashPassword(password) };
  save(file, document);
  return password;
}

export function removeUser(file: string, username: string): void {
  const document = read(file, false);
  document.users.splice(indexOf(document, username, file), 1);
  save(file, document);
}

export function listUsers(file: string): ConsoleUser[] {
  return parseUsers(read(file, false), file);
}
