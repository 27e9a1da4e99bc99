import { describe, expect, it } from 'vitest';
import {
  NOTIFICATION_REASONS,
  REASONS,
  defaultPreferences,
  foldGroup,
  keeps,
  notificationIdFor,
  notificationOf,
  preferencesOf,
  seenAtAllowed,
  type GroupChange,
} from '../../shared/domain/notifications.js';

const added = (actor_id: string): GroupChange => ({ actor_id, change: 'added' });
const removed = (actor_id: string): GroupChange => ({ actor_id, change: 'removed' });

describe('notification reasons', () => {
  it('are the twelve of the tables; likes, comment likes and follows group, each reason has its subject type', () => {
    expect(NOTIFICATION_REASONS).toHaveLength(12);
    // The moderation notices come last, after the ten of the conversations table.
    expect(NOTIFICATION_REASONS.slice(-2)).toEqual(['report_resolved', 'content_removed']);
    expect(REASONS.report_resolved).toEqual({ subject: 'report', grouped: false });
    expect(REASONS.content_removed).toEqual({ subject: ['post', 'comment'], grouped: false });
    expect(NOTIFICATION_REASONS.filter((r) => REASONS[r].grouped)).toEqual(['like', 'comment_like', 'follow']);
    expect(REASONS.like.subject).toBe('post');
    expect(REASONS.comment_like.subject).toBe('comment');
    expect(REASONS.follow.subject).toBe('profile');
    expect(REASONS.access_invitation.subject).toBe('access_grant');
  });
});

describe('grouping a batch of likes or follows', () => {
  it('counts each new profile once, newest first, at most three shown', () => {
    const out = foldGroup({ open: undefined, left: [] }, ['a', 'b', 'c', 'd'].map(added));
    expect(out).toEqual({ added: ['d', 'c', 'b', 'a'], actor_ids: ['d', 'c', 'b'], actors_count: 4, left: [] });
  });

  it('adds to an open group: the new actors first, the count exact', () => {
    const out = foldGroup({ open: { actor_ids: ['b', 'a'], actors_count: 7 }, left: [] }, [added('c')]);
    expect(out.actor_ids).toEqual(['c', 'b', 'a']);
    expect(out.actors_count).toBe(8);
  });

  it('never withdraws on an undoing, and a profile that undid and came back is a repeat', () => {
    const out = foldGroup({ open: { actor_ids: ['a'], actors_count: 1 }, left: [] }, [
      removed('a'),
      added('a'),
      added('b'),
      removed('b'),
      added('b'),
    ]);
    expect(out).toEqual({ added: ['b'], actor_ids: ['b', 'a'], actors_count: 2, left: ['a', 'b'] });
    // remembered across batches until the group is seen
    const later = foldGroup({ open: { actor_ids: out.actor_ids, actors_count: 2 }, left: out.left }, [added('a')]);
    expect(later.added).toEqual([]);
    expect(later.actors_count).toBe(2);
  });

  it('repeats in one batch count once', () => {
    expect(foldGroup({ open: undefined, left: [] }, [added('a'), added('a')]).actors_count).toBe(1);
  });
});

describe('notification ids, preferences and seen_at', () => {
  it('derives the same UUID from the same source, another from another', () => {
    const id = notificationIdFor('event:1');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(notificationIdFor('event:1')).toBe(id);
    expect(notificationIdFor('event:2')).not.toBe(id);
  });

  it('makes an ungrouped draft one unseen notification by its actor', () => {
    const n = notificationOf({
      source: 's',
      recipient_id: 'r',
      actor_id: 'a',
      reason: 'mention',
      subject_type: 'post',
      subject_id: 'p',
      post_id: 'p',
      comment_id: null,
      at: '2026-11-25T00:00:00.000Z',
    });
    expect(n).toMatchObject({ id: notificationIdFor('s'), actor_ids: ['a'], actors_count: 1, seen: false });
    expect(n.created_at).toBe(n.updated_at);
  });

  it('keeps all, keeps following only from followed profiles, keeps none', () => {
    expect(keeps('all', () => false)).toBe(true);
    expect(keeps('following', () => true)).toBe(true);
    expect(keeps('following', () => false)).toBe(false);
    expect(keeps('none', () => true)).toBe(false);
  });

  it('reads stored preferences over the defaults, ignoring what is not a reason or a value', () => {
    expect(defaultPreferences().like).toBe('all');
    const read = preferencesOf({ like: 'none', follow: 'following', mention: 'loud', nonsense: 'none' });
    expect(read).toMatchObject({ like: 'none', follow: 'following', mention: 'all' });
    expect(Object.keys(read)).toHaveLength(NOTIFICATION_REASONS.length + 1);
    expect(read.from_agents).toBe('all');
    expect(preferencesOf({ from_agents: 'none' }).from_agents).toBe('none');
    expect(preferencesOf({ from_agents: 'loud' }).from_agents).toBe('all');
  });

  it('refuses a seen_at in the future', () => {
    const now = new Date('2026-11-25T12:00:00.000Z');
    expect(seenAtAllowed(now, now)).toBe(true);
    expect(seenAtAllowed(new Date(now.getTime() - 1), now)).toBe(true);
    expect(seenAtAllowed(new Date(now.getTime() + 1), now)).toBe(false);
  });
});
