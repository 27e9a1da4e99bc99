import * as z from 'zod';
import { MAX_THREAD_ANCESTORS } from '../../../domain/posts.js';
import { Uuid } from './common.js';
import { PostWithProfile } from './posts.js';

export const UnavailablePost = z
  .object({
    post: z.null(),
    profile: z.null(),
    post_id: Uuid,
    unavailable: z.literal(true),
  })
  .meta({
    id: 'UnavailablePost',
    description:
      'An ancestor the caller cannot see (removed, a draft, or hidden by its blocks and mutes): its place in the chain.',
  });

export const ThreadAncestor = z.union([PostWithProfile, UnavailablePost]);

export const Thread = z
  .object({
    ancestors: z
      .array(ThreadAncestor)
      .max(MAX_THREAD_ANCESTORS)
      .meta({
        description: `From the root down to the parent; at most ${MAX_THREAD_ANCESTORS}, the nearest kept. Empty for a post that is no reply.`,
      }),
    post: PostWithProfile,
    replies: z.array(PostWithProfile).meta({
      description: "The post's direct published replies, oldest first (this page); each has its own reply_count.",
    }),
    next_cursor: z.string().nullable().meta({ description: 'The next page of replies; null after the last.' }),
  })
  .meta({ id: 'Thread' });
