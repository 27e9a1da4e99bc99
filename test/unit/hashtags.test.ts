/** A post's hashtags: the lower-cased `#tags` of its body, in order, each once. */
import { describe, expect, it } from 'vitest';
import { extractHashtags, normalHashtag } from '../../shared/domain/hashtags.js';

describe('extractHashtags', () => {
  it('lower-cases, keeps the order of first appearance and each tag once', () => {
    expect(extractHashtags('#Rust and #ts, then #rust again and #TS_5')).toEqual(['rust', 'ts', 'ts_5']);
  });

  it('takes letters and digits of any script', () => {
    expect(extractHashtags('Ciao #Café #東京 #Ölçü')).toEqual(['café', '東京', 'ölçü']);
  });

  it('leaves out all-digit runs, a # inside a word, entities and empty tags', () => {
    expect(extractHashtags('#2024 is a year, C# a language, a#b no tag, &#39; an entity, # alone, ##x')).toEqual([]);
    expect(extractHashtags('#2024goals')).toEqual(['2024goals']);
  });

  it('ends a tag at the first character that is not a letter, digit or _', () => {
    expect(extractHashtags('(#one) #two. #three-four #five!')).toEqual(['one', 'two', 'three', 'five']);
  });

  it('accepts 64 characters and ignores a longer run', () => {
    const longest = 'a'.repeat(64);
    expect(extractHashtags(`#${longest} #${longest}b`)).toEqual([longest]);
  });
});

describe('normalHashtag', () => {
  it('takes a tag with or without # in any case; refuses what no body could tag', () => {
    expect(normalHashtag('#Rust')).toBe('rust');
    expect(normalHashtag('RUST')).toBe('rust');
    expect(normalHashtag('123')).toBeUndefined();
    expect(normalHashtag('two words')).toBeUndefined();
    expect(normalHashtag('#')).toBeUndefined();
  });
});
