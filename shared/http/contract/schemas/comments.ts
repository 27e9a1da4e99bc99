import * as z from 'zod';
import { Timestamp, Uuid } from './common.js';
import { EditedAt, RemovedBy, ViewerReaction } from './posts.js';
import { Profile } from './profiles.js';

export const Comment = z
  .object({
    id: Uuid,
    post_id: Uuid,
    profile_id: Uuid.meta({ description: 'The author profile.' }),
    parent_comment_id: Uuid.nullable().meta({
      description: 'The comment this one replies to; null for a top-level comment.',
    }),
    body: z.string(),
    status: z.enum(['published', 'removed', 'deleted']).meta({
      description:
        '`removed` (by moderation) only in the lists its author reads; everyone else no longer sees it. `deleted`: deleted while it had replies, kept with an empty body so they keep their place.',
    }),
    replies_count: z.number().int().min(0).meta({ description: 'Direct replies to this comment.' }),
    reactions_count: z.number().int().min(0).meta({
      description:
        'Likes of this comment. Counted from the likes behind it: may lag them by up to 2 seconds, exact after that.',
    }),
    viewer_reaction: ViewerReaction,
    created_at: Timestamp,
    updated_at: Timestamp,
    edited_at: EditedAt,
    removed_by: RemovedBy,
  })
  .meta({ id: 'Comment' });

export const CommentWithProfile = z.object({ comment: Comment, profile: Profile }).meta({ id: 'CommentWithProfile' });

const CommentBodyText = z
  .string()
  .min(1)
  .max(2000)
  .refine((s) => s.trim().length > 0, 'must not be blank');

export const CreateCommentBody = z.strictObject({
  body: CommentBodyText,
  parent_comment_id: Uuid.optional().meta({ description: 'Replies to this comment of the same post (any depth).' }),
});

export const UpdateCommentBody = z.strictObject({ body: CommentBodyText });

export const CommentDeleted = z.object({ deleted: z.literal(true) });

export const CommentIdParams = z.strictObject({ comment_id: Uuid });

export const CommentReactionResult = z.object({
  comment_id: Uuid,
  reactions_count: z.number().int().min(0),
  viewer_reaction: ViewerReaction,
});
