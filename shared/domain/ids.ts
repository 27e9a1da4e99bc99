import { createHash, randomUUID } from 'node:crypto';

export const newId = (): string => randomUUID();
export const nowIso = (): string => new Date().toISOString();

/**
 * An id that the same parts always give again (so that a replayed write finds the item the first
 * made): a UUID of the SHA-256 of the parts joined by `:`, in the version 8 ("custom") layout of
 * RFC 9562.
 */
export function idFromParts(...parts: string[]): string {
  const hex = createHash('sha256').update(parts.join(':')).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
