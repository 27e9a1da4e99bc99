/** The records behind search hits, read as they are now: one BatchGetItem per 100. */
import { batchGet, keyId } from './batch.js';
import { keys } from './keys.js';
import { withCard, type PostWithCard } from './posts.js';

/** The posts of these ids that exist, each with its author's card, in the order of `ids`. */
export async function getPostsWithCards(ids: readonly string[]): Promise<PostWithCard[]> {
  if (ids.length === 0) return [];
  const found = await batchGet(ids.map((id) => keys.post(id)));
  return ids.flatMap((id) => {
    const item = found.get(keyId(keys.post(id)));
    return item ? [withCard(item)] : [];
  });
}
