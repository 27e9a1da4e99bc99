import { KEY_ATTRIBUTES } from './keys.js';

/** Drops the key layout's attributes so the record is the entity alone. */
export function stripKeys<T>(item: Record<string, unknown> | undefined): T | undefined {
  if (!item) return undefined;
  const record: Record<string, unknown> = { ...item };
  for (const attribute of KEY_ATTRIBUTES) delete record[attribute];
  return record as T;
}
