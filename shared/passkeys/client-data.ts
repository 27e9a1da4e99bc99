/**
 * What a WebAuthn response's clientDataJSON says (its type, challenge and origin), read before the
 * library checks it: a registration is found by its challenge, and each refusal gets its own hint.
 */
export interface ClientData {
  type: string;
  challenge: string;
  origin: string;
  /** True when the ceremony ran in a cross-origin iframe: refused (the console never embeds one). */
  crossOrigin: boolean;
}

/** The client data of a base64url clientDataJSON; undefined when it is not one. */
export function readClientData(clientDataJSON: string): ClientData | undefined {
  try {
    const data: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    if (typeof data !== 'object' || data === null) return undefined;
    const { type, challenge, origin, crossOrigin } = data as Record<string, unknown>;
    if (typeof type !== 'string' || typeof challenge !== 'string' || typeof origin !== 'string') return undefined;
    return { type, challenge, origin, crossOrigin: crossOrigin === true };
  } catch {
    return undefined;
  }
}
