/** The API's errors in a person's words (the console), and scopes in sentences (the consent page). */
import { describe, expect, it } from 'vitest';
import { ApiProblem } from '@social-network/sdk';
import { fieldProblems, inHumanWords } from '../../console/app/ui/human-words.js';
import { scopeSentence } from '../../console/app/scope-words.js';

describe('errors in human words', () => {
  it('turns a 429 into when to try again, without the hint written for programs', () => {
    const limited = new ApiProblem(
      429,
      'rate_limited',
      'Too many requests; retry in 286 s.',
      'Wait for the number of seconds in Retry-After; RateLimit and RateLimit-Policy describe the limit.',
    );
    expect(inHumanWords(limited)).toEqual({
      message: 'Too many attempts in a short time. Try again in about 5 minutes.',
    });
    expect(inHumanWords(new ApiProblem(429, 'rate_limited', 'Too many requests; retry in 20 s.')).message).toBe(
      'Too many attempts in a short time. Try again in 20 seconds.',
    );
    expect(inHumanWords(new ApiProblem(429, 'rate_limited', 'Too many requests; retry in 86400 s.')).message).toBe(
      'Too many attempts in a short time. Try again in about 24 hours.',
    );
  });

  it("names fields without the request's parts, and keeps every other error as the API wrote it", () => {
    const invalid = new ApiProblem(
      400,
      'invalid_request',
      'body.name is required.',
      'body.name is required; body.url: url must use https',
    );
    expect(inHumanWords(invalid)).toEqual({
      message: 'name is required.',
      hint: 'name is required. url: url must use https.',
    });
    const other = new ApiProblem(403, 'forbidden', 'Only owners.', 'Ask an owner.');
    expect(inHumanWords(other)).toEqual({ message: 'Only owners.', hint: 'Ask an owner.' });
  });

  it('finds the refused fields of the form in the hint', () => {
    const invalid = new ApiProblem(
      400,
      'invalid_request',
      'Invalid body.url.',
      'body.url: url must use https; body.event_types.0: Invalid option',
    );
    expect(fieldProblems(invalid)).toEqual({ url: 'Url must use https.', event_types: 'Invalid option.' });
    expect(fieldProblems(new ApiProblem(401, 'unauthorized', 'No.', 'body.x: y'))).toEqual({});
  });
});

describe('scopes in sentences', () => {
  it('says what each scope lets an app do, and shows an unknown one as it is', () => {
    expect(scopeSentence('posts:write')).toBe(
      "Create, change and delete the chosen profiles' posts, replies and reactions to them.",
    );
    expect(scopeSentence('all:read')).toMatch(/^Read everything/);
    expect(scopeSentence('spaceships:read')).toBe('spaceships:read');
  });
});
