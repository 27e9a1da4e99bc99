/** The q grammar of post search: words, "phrases", -exclusions, #tags, from:username. */
import { describe, expect, it } from 'vitest';
import { hasPositiveTerms, parsePostQuery, wordsOf } from '../../shared/domain/search-query.js';

describe('parsePostQuery', () => {
  it('reads each operator', () => {
    expect(parsePostQuery('Serverless "event sourcing" -kafka #AWS from:Jane_Doe')).toEqual({
      words: ['serverless'],
      phrases: ['event sourcing'],
      excluded: ['kafka'],
      hashtags: ['aws'],
      from: ['jane_doe'],
    });
  });

  it('splits words as the index does, lower-cased, each once', () => {
    expect(parsePostQuery('Café, café! node.js').words).toEqual(['café', 'node', 'js']);
  });

  it('treats a one-word phrase as a word, an empty one as nothing, and closes an open quote', () => {
    expect(parsePostQuery('"solo" "" "open ended')).toMatchObject({ words: ['solo'], phrases: ['open ended'] });
  });

  it('excludes a negated phrase as a phrase', () => {
    expect(parsePostQuery('cloud -"vendor lock"').excluded).toEqual(['vendor lock']);
  });

  it('keeps the words of what is no operator: an all-digit #, an invalid from:, a lone -', () => {
    expect(parsePostQuery('#2024 from:x - plain')).toEqual({
      words: ['2024', 'from', 'x', 'plain'],
      phrases: [],
      excluded: [],
      hashtags: [],
      from: [],
    });
  });

  it('takes a #tag followed by punctuation', () => {
    expect(parsePostQuery('#rust, #Go.').hashtags).toEqual(['rust', 'go']);
  });

  it('knows a query of exclusions only asks for nothing positive', () => {
    expect(hasPositiveTerms(parsePostQuery('-spam -"bad phrase"'))).toBe(false);
    expect(hasPositiveTerms(parsePostQuery('from:someone'))).toBe(true);
  });
});

describe('wordsOf', () => {
  it('keeps letters and digits of any script', () => {
    expect(wordsOf('Zürich—東京 42')).toEqual(['zürich', '東京', '42']);
  });
});
