import { describe, expect, it } from 'vitest';
import { acceptedScopes, hasScope, SCOPES } from '../../shared/domain/scopes.js';

describe('scopes', () => {
  it('accepts the exact scope and the broader ones the spec names, narrowest first', () => {
    expect(acceptedScopes('posts:write')).toEqual(['posts:write', 'posts:all', 'all:write', 'all:all']);
    expect(acceptedScopes('follows:write')).toEqual(['follows:write', 'follows:all', 'all:write', 'all:all']);
  });

  it('does not let write imply read, nor one resource another', () => {
    expect(hasScope(['posts:write'], 'posts:read')).toBe(false);
    expect(hasScope(['all:write'], 'messages:read')).toBe(false);
    expect(hasScope(['comments:all'], 'posts:write')).toBe(false);
    expect(hasScope(['messages:all'], 'messages:read')).toBe(true);
    expect(hasScope(['all:read'], 'messages:read')).toBe(true);
  });

  it('lists every resource with read, write and all, plus all:*', () => {
    expect(SCOPES).toHaveLength(33);
    expect(SCOPES).toContain('profile_access:write');
    expect(SCOPES).toContain('media:write');
    expect(SCOPES).toContain('safety:write');
    expect(SCOPES).toContain('notifications:read');
    expect(SCOPES).toContain('events:read');
    expect(SCOPES).toContain('all:all');
  });
});
