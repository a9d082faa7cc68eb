import { hash, verify } from '@node-rs/argon2';

/**
 * The one rule for a password someone chooses for a user (POST /users, reset_password, the admin
 * command line's --password): length only, as NIST SP 800-63B advises (no composition rules).
 * Generated passwords (24 characters) pass it.
 */
export const PASSWORD_LENGTH = { min: 12, max: 256 } as const;

/** Why a chosen password is refused, or undefined. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_LENGTH.min) return `must have at least ${PASSWORD_LENGTH.min} characters`;
  if (password.length > PASSWORD_LENGTH.max) return `must have at most ${PASSWORD_LENGTH.max} characters`;
  return undefined;
}

/** argon2id with the library's defaults (OWASP minimum: 19 MiB, 2 iterations). */
export const hashPassword = (password: string) => hash(password);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
