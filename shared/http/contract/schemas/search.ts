import * as z from 'zod';
import { normalHashtag } from '../../../domain/hashtags.js';
import { PageQuery, Timestamp, Uuid } from './common.js';
import { ProfileType } from './profiles.js';
import { AuthorsQuery } from './disclosure.js';

export const SearchProfilesQuery = PageQuery.extend({
  q: z.string().trim().min(1).max(100).meta({
    description:
      "Prefixes of the words of a profile's username, name or call_name (case and accents ignored); an exact username comes first.",
  }),
  type: ProfileType.optional(),
  occupation: z.string().min(1).max(200).optional().meta({ description: 'An occupation name, exactly.' }),
  country_code: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code')
    .optional()
    .meta({ description: "The profile's location country (ISO 3166-1 alpha-2, any case)." }),
});

const Hashtag = z
  .string()
  .refine((tag) => normalHashtag(tag) !== undefined, 'must be a tag: 1-64 letters, digits or _, not all digits')
  .meta({ description: 'Posts carrying this hashtag (with or without #, any case).' });

export const SearchPostsQuery = PageQuery.extend({
  ...AuthorsQuery,
  q: z.string().trim().min(1).max(500).optional().meta({
    description:
      'Words (all must match, case and accents ignored), "a phrase", -word (must not match), #tag (hashtags only), from:username.',
  }),
  author_profile_id: Uuid.optional(),
  hashtag: Hashtag.optional(),
  mentions_profile_id: Uuid.optional().meta({ description: 'Posts that @mention this profile.' }),
  since: Timestamp.optional().meta({ description: 'Published at or after (inclusive).' }),
  until: Timestamp.optional().meta({ description: 'Published before (exclusive).' }),
  has_media: z
    .enum(['true', 'false'])
    .optional()
    .meta({ description: 'Only posts with (true) or without (false) images.' }),
  kind: z.enum(['post', 'reply']).optional().meta({ description: 'No kind: both.' }),
  sort: z
    .enum(['latest', 'top'])
    .default('latest')
    .meta({ description: '`latest`: newest first. `top`: by relevance, then likes.' }),
}).refine(
  (query) =>
    query.q !== undefined ||
    query.hashtag !== undefined ||
    query.author_profile_id !== undefined ||
    query.mentions_profile_id !== undefined,
  'send at least one of q, hashtag, author_profile_id or mentions_profile_id',
);
