import type { ProfileRecord } from '../../domain/entities.js';
import { bodyPreview, type PostRecord } from '../../domain/posts.js';
import { Post } from '../contract/schemas/posts.js';
import { declaredWith } from './declared.js';
import { presentProfile } from './profiles.js';

/** `liked`: the acting profile's reaction (false without a viewer, as in events). */
export const presentPost = (post: PostRecord, liked = false) => {
  const { body_preview, body_truncated } = bodyPreview(post.body);
  return declaredWith(Post, post, {
    body_preview,
    body_truncated,
    image_count: post.images.length,
    viewer_reaction: liked ? 'like' : null,
  });
};

export const presentPostWithProfile = (post: PostRecord, author: ProfileRecord, liked = false) => ({
  post: presentPost(post, liked),
  profile: presentProfile(author),
});
