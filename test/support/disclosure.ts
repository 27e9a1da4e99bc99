import type { Disclosure } from '../../shared/domain/disclosure.js';

/** The stamp of a human profile writing through a session: what the store tests' records carry. */
export const bySession: Disclosure = { automated: false, via: { kind: 'session' } };
