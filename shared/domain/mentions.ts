/** `@username` mentions in a post body (usernames: 3-30 of [a-z0-9_], case-insensitive). */

/** At most this many distinct mentions of one post are notified (keeps the transaction small). */
export const MAX_MENTIONS = 20;

export function extractMentions(body: string): string[] {
  const found = new Set<string>();
  // Not preceded by a username character (so e-mail addresses do not count) and not followed by one.
  for (const match of body.matchAll(/(?<![A-Za-z0-9_@])@([A-Za-z0-9_]{3,30})(?![A-Za-z0-9_])/g)) {
    found.add(match[1]!.toLowerCase());
    if (found.size >= MAX_MENTIONS) break;
  }
  return [...found];
}
