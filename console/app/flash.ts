/**
 * A secret the API has just shown (on create or rotate), kept in memory only until the endpoint
 * page has displayed it: the API never returns it again, and the console does not store it.
 */
export interface SecretFlash {
  kind: 'created' | 'rotated';
  endpointId: string;
  secret: string;
  /** When it was issued; after a rotation the previous secret signs for 24 hours from then. */
  at: string;
}

let pending: SecretFlash | undefined;

export const flash = {
  set: (value: SecretFlash) => {
    pending = value;
  },
  take: (endpointId: string): SecretFlash | undefined => {
    if (pending?.endpointId !== endpointId) return undefined;
    const value = pending;
    pending = undefined;
    return value;
  },
};
