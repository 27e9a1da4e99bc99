/**
 * The `q` grammar of post search (API.md "Search"): words (all must match), `"a phrase"`, `-word`
 * (must not match), `#tag` (the post's hashtags only) and `from:username`. Both search adapters
 * take the parsed query, so the grammar is read in this one place.
 */
import { normalHashtag } from './hashtags.js';

export interface PostQueryTerms {
  /** Words every post must contain (case and accents ignored by the index). */
  words: string[];
  /** Phrases every post must contain, words in this order. */
  phrases: string[];
  /** Words (or phrases, words joined by one space) no post may contain. */
  excluded: string[];
  /** Hashtags (normalised, without `#`) every post must carry. */
  hashtags: string[];
  /** Usernames (lower case) one of which must be the author. */
  from: string[];
}

/** A word as the index sees one: letters, digits, marks (the tokenizer splits on anything else). */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const USERNAME = /^[a-z0-9_]{3,30}$/;

/** The index words of a piece of text, lower case (what the adapters quote and match). */
export const wordsOf = (text: string): string[] => text.toLowerCase().match(WORD) ?? [];

/**
 * The terms of `q`. Anything that is not a known operator is text: `from:` with no valid
 * username, a `#` that makes no tag and a lone `-` contribute their words, so nothing typed is
 * silently dropped, and quotes left open close at the end.
 */
export function parsePostQuery(q: string): PostQueryTerms {
  const terms: PostQueryTerms = { words: [], phrases: [], excluded: [], hashtags: [], from: [] };
  const tokens = q.match(/-?"[^"]*"?|\S+/g) ?? [];
  for (const token of tokens) {
    if (token.startsWith('"') || token.startsWith('-"')) {
      const negative = token.startsWith('-');
      const words = wordsOf(token.replace(/^-?"|"$/g, ''));
      if (words.length === 0) continue;
      // A phrase is its words joined by one space; `-"a b"` excludes the phrase.
      if (negative) terms.excluded.push(words.join(' '));
      else (words.length === 1 ? terms.words : terms.phrases).push(words.join(' '));
      continue;
    }
    if (token.startsWith('-') && token.length > 1) {
      terms.excluded.push(...wordsOf(token.slice(1)));
      continue;
    }
    if (token.startsWith('#')) {
      const tag = normalHashtag(token.replace(/[^\p{L}\p{M}\p{N}_#]+$/u, ''));
      if (tag) {
        terms.hashtags.push(tag);
        continue;
      }
    }
    const from = /^from:(.*)$/i.exec(token);
    if (from && USERNAME.test(from[1]!.replace(/^@/, '').toLowerCase())) {
      terms.from.push(from[1]!.replace(/^@/, '').toLowerCase());
      continue;
    }
    terms.words.push(...wordsOf(token));
  }
  return {
    words: [...new Set(terms.words)],
    phrases: [...new Set(terms.phrases)],
    excluded: [...new Set(terms.excluded)],
    hashtags: [...new Set(terms.hashtags)],
    from: [...new Set(terms.from)],
  };
}

/** Whether the terms ask for anything to match (a query of only exclusions matches nothing by itself). */
export const hasPositiveTerms = (terms: PostQueryTerms): boolean =>
  terms.words.length + terms.phrases.length + terms.hashtags.length + terms.from.length > 0;
