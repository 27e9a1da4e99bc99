import { describe, expect, it } from 'vitest';
import {
  allowsMessageFrom,
  messageTimeAfter,
  movesReadMarkForward,
  recipientBox,
} from '../../shared/domain/conversations.js';

describe('who may message a profile', () => {
  it('takes everyone, only followed profiles, or nobody', () => {
    expect(allowsMessageFrom('everyone', false)).toBe(true);
    expect(allowsMessageFrom('following', true)).toBe(true);
    expect(allowsMessageFrom('following', false)).toBe(false);
    expect(allowsMessageFrom('nobody', true)).toBe(false);
  });

  it('puts a first message from a stranger in requests, and keeps a conversation where it is', () => {
    expect(recipientBox(undefined, false)).toBe('requests');
    expect(recipientBox(undefined, true)).toBe('inbox');
    expect(recipientBox({ box: 'inbox' }, false)).toBe('inbox');
    expect(recipientBox({ box: 'requests' }, true)).toBe('requests');
  });
});

describe('message times and read marks', () => {
  const now = new Date('2026-01-01T00:00:00.000Z');

  it('takes now, or a millisecond after a last message the clock has not passed', () => {
    expect(messageTimeAfter(now, undefined)).toBe('2026-01-01T00:00:00.000Z');
    expect(messageTimeAfter(now, '2025-12-31T23:59:59.000Z')).toBe('2026-01-01T00:00:00.000Z');
    expect(messageTimeAfter(now, '2026-01-01T00:00:00.000Z')).toBe('2026-01-01T00:00:00.001Z');
    expect(messageTimeAfter(now, '2026-01-01T00:00:05.000Z')).toBe('2026-01-01T00:00:05.001Z');
  });

  it('moves a read mark only forward, ties broken by id as the keys are', () => {
    const mark = { read_up_to: 'b', read_up_to_at: '2026-01-01T00:00:00.000Z' };
    expect(movesReadMarkForward({}, { id: 'a', created_at: '2020-01-01T00:00:00.000Z' })).toBe(true);
    expect(movesReadMarkForward(mark, { id: 'a', created_at: '2026-01-01T00:00:01.000Z' })).toBe(true);
    expect(movesReadMarkForward(mark, { id: 'c', created_at: '2026-01-01T00:00:00.000Z' })).toBe(true);
    expect(movesReadMarkForward(mark, { id: 'b', created_at: '2026-01-01T00:00:00.000Z' })).toBe(false);
    expect(movesReadMarkForward(mark, { id: 'z', created_at: '2025-01-01T00:00:00.000Z' })).toBe(false);
  });
});
