import { describe, expect, it } from 'vitest';
import {
  chainMark,
  ErasureMessage,
  passChains,
  passMessages,
  PROFILE_PATHS,
  USER_PATHS,
  WORKSPACE_PATHS,
} from '../../shared/domain/erasure.js';

const job = {
  id: 'job-1',
  subjects: {
    profiles: [
      { id: 'p1', username: 'ada' },
      { id: 'p2', username: 'bob' },
    ],
    user: { id: 'u1', email: 'ada@example.com' },
    workspace_ids: ['w1'],
  },
};

describe('the chains of an erasure', () => {
  it('walk every path of every subject on the first pass, and revisit the first pass’s reach on the second', () => {
    const first = passChains(job, 1);
    expect(first).toHaveLength(2 * PROFILE_PATHS.length + USER_PATHS.length + WORKSPACE_PATHS.length);
    expect(first.filter((m) => m.subject === 'p2').map((m) => m.path)).toEqual([...PROFILE_PATHS]);
    expect(first.filter((m) => m.subject === 'u1').map((m) => m.path)).toEqual([...USER_PATHS]);
    expect(first.filter((m) => m.subject === 'w1').map((m) => m.path)).toEqual([...WORKSPACE_PATHS]);
    expect(first.some((m) => m.path === 'revisit')).toBe(false);
    const second = passChains(job, 2);
    expect(second).toHaveLength(first.length + 1);
    expect(second.at(-1)).toEqual({ kind: 'walk', job_id: 'job-1', pass: 2, path: 'revisit', subject: 'job-1' });
  });

  it('name each chain once, so a replayed last page marks it once, and start again only those not done', () => {
    const marks = passChains(job, 1).map(chainMark);
    expect(new Set(marks).size).toBe(marks.length);
    const done = new Set(marks.slice(0, 5));
    const left = passMessages(job, 1, done);
    expect(left.map(chainMark)).toEqual(marks.slice(5));
    expect(left.every((m) => m.cursor === undefined)).toBe(true);
  });

  it('takes a message of a known path only', () => {
    const walk = { kind: 'walk', job_id: 'j', pass: 1, path: 'likes', subject: 'p1', cursor: { pk: 'x', sk: 'y' } };
    expect(ErasureMessage.safeParse(walk).success).toBe(true);
    expect(ErasureMessage.safeParse({ ...walk, path: 'table' }).success).toBe(false);
    expect(ErasureMessage.safeParse({ ...walk, segment: 0, path: undefined }).success).toBe(false);
  });
});
