/**
 * The signature algorithms a passkey may use (COSE identifiers): the three every platform
 * authenticator offers. A sign-in checks signatures with node:crypto alone (assertion.ts), so
 * registration accepts only what it can check.
 */
export const PASSKEY_ALGORITHMS = { ES256: -7, EdDSA: -8, RS256: -257 } as const;

export type PasskeyAlgorithm = (typeof PASSKEY_ALGORITHMS)[keyof typeof PASSKEY_ALGORITHMS];

export const PASSKEY_ALGORITHM_IDS: number[] = Object.values(PASSKEY_ALGORITHMS);

/** node:crypto's digest argument for `verify` of each algorithm (EdDSA hashes inside the signature). */
export const digestOf = (algorithm: number): string | null | undefined =>
  algorithm === PASSKEY_ALGORITHMS.EdDSA
    ? null
    : algorithm === PASSKEY_ALGORITHMS.ES256 || algorithm === PASSKEY_ALGORITHMS.RS256
      ? 'sha256'
      : undefined;
