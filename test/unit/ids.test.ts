/** Ids derived from their parts: the same parts give the same id, in the UUID version 8 layout. */
import { describe, expect, it } from 'vitest';
import { idFromParts } from '../../shared/domain/ids.js';

const UUID_V8 = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('idFromParts', () => {
  it('gives the same UUID (version 8, RFC 9562 variant) for the same parts, another for other parts', () => {
    const id = idFromParts('event-1', 'endpoint-1');
    expect(id).toMatch(UUID_V8);
    expect(idFromParts('event-1', 'endpoint-1')).toBe(id);
    expect(idFromParts('event-1', 'endpoint-2')).not.toBe(id);
    expect(idFromParts('endpoint-1', 'event-1')).not.toBe(id);
    // The parts are joined by `:`: a source already joined gives the id of its parts.
    expect(idFromParts('event-1:endpoint-1')).toBe(id);
  });
});
