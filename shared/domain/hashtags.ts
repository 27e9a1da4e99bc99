/** `#tags` in a post body: what `hashtags` of a post holds and what search's `#tag` matches. */

/** The longest tag; a longer run of tag characters is not a tag. */
export const MAX_HASHTAG_LENGTH = 64;

/** Letters, digits and `_`, any script. */
const TAG_RUN = /(?<![\p{L}\p{N}_&#])#([\p{L}\p{M}\p{N}_]+)/gu;
const ALL_DIGITS = /^\p{N}+$/u;

/** A tag as stored and matched: lower case, without `#`; undefined when `text` is no tag. */
export function normalHashtag(text: string): string | undefined {
  const tag = (text.startsWith('#') ? text.slice(1) : text).toLowerCase();
  if ([...tag].length < 1 || [...tag].length > MAX_HASHTAG_LENGTH) return undefined;
  if (!/^[\p{L}\p{M}\p{N}_]+$/u.test(tag) || ALL_DIGITS.test(tag)) return undefined;
  return tag;
}

/**
 * The lower-cased `#tags` of a body, in order of first appearance, each once. A `#` inside a word
 * (`C#`, `a#b`) or after `&` (an HTML entity such as `&#39;`) starts no tag; a tag is 1–64 letters,
 * digits or `_`, not all digits (`#2024` is a number, not a tag).
 */
export function extractHashtags(body: string): string[] {
  const found = new Set<string>();
  for (const match of body.matchAll(TAG_RUN)) {
    const tag = normalHashtag(match[1]!);
    if (tag) found.add(tag);
  }
  return [...found];
}
