/** Validation failures in the caller's words: what is missing is required, what is empty must not be. */
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { parseInput } from '../../shared/http/validation.js';

const Body = z.strictObject({ name: z.string().trim().min(1).max(10), url: z.url(), count: z.number().optional() });

const refusal = (value: unknown) => {
  try {
    parseInput('body', Body, value);
  } catch (error) {
    return { message: (error as Error).message, hint: (error as { hint?: string }).hint };
  }
  throw new Error('accepted');
};

describe('validation errors', () => {
  it('say a missing field is required, not what type undefined is', () => {
    expect(refusal({})).toEqual({
      message: 'body.name is required.',
      hint: 'body.name is required; body.url is required',
    });
  });

  it('say an empty text must not be empty, and keep the rule for other failures', () => {
    const { message, hint } = refusal({ name: '', url: 'https://example.com', count: 'x' });
    expect(message).toBe('Invalid body.name.');
    expect(hint).toContain('body.name: must not be empty');
    expect(hint).toContain('body.count: Invalid input: expected number, received string');
    expect(hint).not.toContain('Too small');
  });
});
