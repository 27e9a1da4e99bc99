/**
 * A post's images in the table: each media attached (no longer expiring) and claimed by the post
 * when the post is created, released (deleted with its files 30 days later) and unclaimed when
 * the post is removed. The claim keeps a media on one post at a time, so releasing it for one
 * post never takes an image from another.
 */
import type { ReadyMedia } from '../domain/media-attachments.js';
import type { PostRecord } from '../domain/posts.js';
import { AppError } from '../errors.js';
import { mediaNotFound } from '../domain/media-attachments.js';
import { entities } from './entities.js';
import { conditionRequest, when } from './expressions.js';
import { putTransactItem } from './items.js';
import { keys } from './keys.js';
import { attachMediaItem, releaseMediaItem } from './media.js';
import type { GuardedItem, TransactItem } from './transact.js';

const onAnotherPost = (index: number) =>
  new AppError('invalid_state', {
    message: 'The media is an image of another post already.',
    hint: `images[${index}].media_id: a media shows on one post at a time; upload the image again for this post.`,
  });

/** The transaction items that attach `media` (the post's images, in order) to the new post. */
export function attachPostImages(
  post: Pick<PostRecord, 'id' | 'created_at'>,
  media: readonly ReadyMedia[],
): GuardedItem[] {
  const now = new Date(post.created_at);
  return media.flatMap((m, index) => [
    // The media changed since it was read: expired, or gone.
    { item: attachMediaItem(m, now), refused: () => mediaNotFound(`images[${index}].media_id`) },
    {
      item: putTransactItem(entities.postImageClaim, { media_id: m.id, post_id: post.id }),
      refused: () => onAnotherPost(index),
    },
  ]);
}

/** The transaction items that release a removed post's images and drop its claims on them. */
export function releasePostImages(post: Pick<PostRecord, 'id' | 'images'>, now: Date): TransactItem[] {
  return post.images.flatMap((image) => [
    releaseMediaItem(image.id, now),
    {
      Delete: {
        ...conditionRequest(when.any(when.absent(), when.is('post_id', post.id))),
        Key: keys.postImageClaim(image.id),
      },
    },
  ]);
}
