import * as z from 'zod';
import { BODY_PREVIEW_LENGTH, MAX_IMAGES } from '../../../domain/posts.js';
import { REPLY_POLICIES } from '../../../domain/safety.js';
import { Timestamp, Uuid } from './common.js';
import { Profile } from './profiles.js';

const notBlank = (s: string) => s.trim().length > 0;

/** Described once, on the create body: the Post field says the same by its values, in every tool's output. */
export const ReplyPolicy = z.enum(REPLY_POLICIES);

export const ReactionType = z.enum(['like']).meta({ description: 'The only reaction is `like`.' });
export const ViewerReaction = ReactionType.nullable().meta({
  description: "The acting profile's reaction (X-Profile-Id with a valid credential); null otherwise.",
});

/** Who removed a removed post or comment (only its author ever reads it); null unless removed. */
export const RemovedBy = z.enum(['author', 'moderation']).nullable().meta({
  description:
    'Who removed it: `author` (their own DELETE) or `moderation` (a moderator resolving reports); null unless status is `removed`. Only the author reads a removed post or comment.',
});

export const PostImage = z
  .object({
    id: Uuid.meta({ description: 'The media shown (media_id as sent).' }),
    url: z.string().meta({ description: "The media's large file (longest side at most 2048 pixels)." }),
    width: z.number().int().min(1).meta({ description: 'Of the file at url.' }),
    height: z.number().int().min(1).meta({ description: 'Of the file at url.' }),
    alt_text: z.string().nullable(),
  })
  .meta({ id: 'PostImage' });

/** When an edit last wrote the body; null until then (Post, Comment and their history's versions). */
export const EditedAt = Timestamp.nullable().meta({
  description: 'When an edit last changed the body; null until then. Earlier versions: GET .../history.',
});

export const Post = z
  .object({
    id: Uuid,
    profile_id: Uuid.meta({ description: 'The author profile.' }),
    kind: z.enum(['post', 'reply']),
    body_preview: z.string().meta({ description: `The first ${BODY_PREVIEW_LENGTH} characters of body.` }),
    body_truncated: z.boolean().meta({ description: 'Whether body_preview is shorter than body.' }),
    images: z.array(PostImage).max(MAX_IMAGES),
    image_count: z.number().int().min(0).max(MAX_IMAGES),
    reply_to_post_id: Uuid.nullable(),
    root_post_id: Uuid.nullable().meta({ description: 'The first post of the thread, for replies; null for a post.' }),
    quoted_post_id: Uuid.nullable().meta({
      description: 'The post this post quotes (a quote is kind `post`, never a reply); null when it quotes none.',
    }),
    visibility: z.enum(['public']),
    status: z.enum(['draft', 'published', 'removed']),
    published_at: Timestamp.nullable(),
    reply_count: z.number().int().min(0).meta({ description: 'Published replies to this post.' }),
    likes_count: z.number().int().min(0).meta({
      description:
        'Likes of this post. Counted from the likes behind it: may lag them by up to 2 seconds, exact after that.',
    }),
    viewer_reaction: ViewerReaction,
    comments_count: z.number().int().min(0),
    quotes_count: z.number().int().min(0).meta({
      description:
        'Published quotes of this post (a draft quote counts once published, a removed one no longer). Counted from the quotes behind it: may lag them by up to 2 seconds, exact after that.',
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
    edited_at: EditedAt,
    body: z.string().meta({ description: 'The full text.' }),
    removed_by: RemovedBy,
    reply_policy: ReplyPolicy,
    hashtags: z.array(z.string()).meta({
      description:
        'The lower-cased `#tags` of the body, in order, each once (a tag is 1-64 letters, digits or `_`, not all digits).',
    }),
  })
  .meta({ id: 'Post' });

export const PostWithProfile = z.object({ post: Post, profile: Profile }).meta({ id: 'PostWithProfile' });

export const PostImageInput = z.strictObject({
  media_id: Uuid.meta({
    description:
      "A ready media of the acting profile, uploaded with purpose post_image (POST /v1/media); the post's image is its large file.",
  }),
  alt_text: z
    .string()
    .max(1000)
    .nullable()
    .optional()
    .meta({ description: 'Text for screen readers; null or absent when there is none.' }),
});

export const PostBodyText = z.string().min(1).max(5000).refine(notBlank, 'must not be blank');

export const CreatePostBody = z
  .strictObject({
    body: PostBodyText,
    images: z
      .array(PostImageInput)
      .max(MAX_IMAGES)
      .refine((images) => new Set(images.map((i) => i.media_id)).size === images.length, 'must not repeat a media_id')
      .default([]),
    reply_to_post_id: Uuid.optional().meta({ description: 'Makes the post a reply to this published post.' }),
    quote_of_post_id: Uuid.optional().meta({
      description: 'Makes the post a quote of this published post (kind stays `post`); not with reply_to_post_id.',
    }),
    status: z.enum(['draft', 'published']).default('published'),
    reply_policy: ReplyPolicy.default('everyone').meta({
      description:
        'Who may reply or comment anywhere in the thread this post roots: everyone, following (whom you follow) or mentioned (whom it mentions); you always may.',
    }),
  })
  .refine((b) => b.reply_to_post_id === undefined || b.quote_of_post_id === undefined, {
    message: 'a post replies or quotes, not both: send reply_to_post_id or quote_of_post_id',
    path: ['quote_of_post_id'],
  });

export const UpdatePostBody = z
  .strictObject({
    body: PostBodyText.optional(),
    status: z.literal('published').optional().meta({ description: 'Publishes a draft; harmless on a published post.' }),
  })
  .refine((b) => b.body !== undefined || b.status !== undefined, 'send body and/or status');

export const PostIdParams = z.strictObject({ post_id: Uuid });

export const ReactionBody = z.strictObject({
  reaction_type: ReactionType,
  active: z.boolean().meta({ description: 'true sets the reaction, false removes it.' }),
});

export const PostReactionResult = z.object({
  post_id: Uuid,
  likes_count: z.number().int().min(0),
  viewer_reaction: ViewerReaction,
});

/** One earlier version of a post's or comment's body (the history routes). */
export const Version = z
  .object({
    body: z.string(),
    images: z.array(PostImage).max(MAX_IMAGES).optional().meta({ description: "A post's images at that version." }),
    edited_at: Timestamp.nullable().meta({ description: 'When an edit wrote this version; null for the original.' }),
  })
  .meta({ id: 'Version' });
