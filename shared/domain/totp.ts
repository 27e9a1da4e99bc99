import { Secret, TOTP } from 'otpauth';

/**
 * TOTP as RFC 6238 and every authenticator app read it: SHA-1, 6 digits, 30-second steps. A code
 * of the step before or after the current one is accepted too (clocks drift, people type slowly).
 */
const PERIOD = 30;
const WINDOW = 1;
const ISSUER = 'Social Network';

/** A new 160-bit secret (RFC 4226's recommended length for SHA-1), base32 as the apps take it. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

const totp = (secret: string, label = '') =>
  new TOTP({ issuer: ISSUER, label, secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: PERIOD });

/** The `otpauth://totp/…` URI an authenticator app scans from the QR code. */
export const otpauthUri = (secret: string, email: string): string => totp(secret, email).toString();

/** The code of the step at `now` (what an app shows). */
export const totpCode = (secret: string, now: Date): string => totp(secret).generate({ timestamp: now.getTime() });

/**
 * The time step `code` belongs to (within ±1 of `now`'s), or undefined when it matches none. The
 * step is what makes a code single use: a caller stores the last step used and accepts only later ones.
 */
export function totpStep(secret: string, code: string, now: Date): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const generator = totp(secret);
  const delta = generator.validate({ token: code, timestamp: now.getTime(), window: WINDOW });
  return delta === null ? undefined : generator.counter({ timestamp: now.getTime() }) + delta;
}
