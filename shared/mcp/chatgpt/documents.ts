/**
 * Posts and profiles as the documents of the `search` and `fetch` tools (the shape ChatGPT's
 * connectors and deep research call): an id naming the kind (`post:<uuid>`, `profile:<uuid>`),
 * a title, the absolute URL of the API read, the text, and metadata (author, dates, counts).
 */
import * as z from 'zod';
import { routes } from '../../http/contract/route-table.js';
import { Location, ProfileType } from '../../http/contract/schemas/profiles.js';
import { Timestamp, Uuid } from '../../http/contract/schemas/common.js';
import type { RouteData } from '../composite.js';

export type PostData = RouteData<'getPost'>;
export type ProfileData = RouteData<'getProfile'>;
type PostProfile = PostData['profile'];

export const DOCUMENT_KINDS = ['post', 'profile'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

export const documentId = (kind: DocumentKind, id: string) => `${kind}:${id}`;

/** The kind and uuid of a document id, or undefined for anything else. */
export function parseDocumentId(id: string): { kind: DocumentKind; id: string } | undefined {
  const [kind, uuid, ...rest] = id.trim().split(':');
  if (rest.length > 0 || !DOCUMENT_KINDS.includes(kind as DocumentKind)) return undefined;
  return Uuid.safeParse(uuid).success ? { kind: kind as DocumentKind, id: uuid! } : undefined;
}

/** The API read of the document, absolute: the route table's path with the id in it. */
export const documentUrl = (baseUrl: string, kind: DocumentKind, id: string) =>
  kind === 'post'
    ? `${baseUrl}${routes.getPost.path.replace('{post_id}', id)}`
    : `${baseUrl}${routes.getProfile.path.replace('{profile_id}', id)}`;

const TITLE_TEXT_LENGTH = 80;

const byline = (profile: Pick<PostProfile, 'name' | 'username'>) => `${profile.name} (@${profile.username})`;

/** The author and the start of the body's first line. */
export function postTitle(post: PostData['post'], profile: PostProfile): string {
  const line = post.body.split('\n', 1)[0]!.trim();
  const start = line.length > TITLE_TEXT_LENGTH ? `${line.slice(0, TITLE_TEXT_LENGTH - 1)}…` : line;
  return `${byline(profile)}: ${start}`;
}

export const profileTitle = (profile: PostProfile): string =>
  profile.occupation ? `${byline(profile)}, ${profile.occupation}` : byline(profile);

/** A profile's name, username and bio. */
export const profileText = (profile: PostProfile): string =>
  [byline(profile), profile.bio].filter((part) => part).join('\n\n');

export const SearchResult = z.object({
  id: z.string().meta({ description: 'post:<uuid> or profile:<uuid>: what fetch takes.' }),
  title: z.string(),
  url: z.string(),
});

const PostMetadata = z.object({
  resource: z.literal('post'),
  author: z.object({ id: Uuid, username: z.string(), name: z.string(), type: ProfileType }),
  kind: z.enum(['post', 'reply']),
  reply_to_post_id: Uuid.nullable(),
  quoted_post_id: Uuid.nullable(),
  hashtags: z.array(z.string()),
  image_count: z.number(),
  published_at: Timestamp.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
  likes_count: z.number(),
  comments_count: z.number(),
  reply_count: z.number(),
  quotes_count: z.number(),
});

const ProfileMetadata = z.object({
  resource: z.literal('profile'),
  type: ProfileType,
  username: z.string(),
  occupation: z.string().nullable(),
  location: Location.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
  followers_count: z.number(),
  following_count: z.number(),
});

export const FetchedDocument = z.object({
  id: z.string(),
  title: z.string(),
  text: z.string(),
  url: z.string(),
  metadata: z.union([PostMetadata, ProfileMetadata]),
});
export type FetchedDocument = z.output<typeof FetchedDocument>;

export function postDocument(baseUrl: string, { post, profile }: PostData): FetchedDocument {
  return {
    id: documentId('post', post.id),
    title: postTitle(post, profile),
    text: post.body,
    url: documentUrl(baseUrl, 'post', post.id),
    metadata: {
      resource: 'post',
      author: { id: profile.id, username: profile.username, name: profile.name, type: profile.type },
      kind: post.kind,
      reply_to_post_id: post.reply_to_post_id,
      quoted_post_id: post.quoted_post_id,
      hashtags: post.hashtags,
      image_count: post.image_count,
      published_at: post.published_at,
      created_at: post.created_at,
      updated_at: post.updated_at,
      likes_count: post.likes_count,
      comments_count: post.comments_count,
      reply_count: post.reply_count,
      quotes_count: post.quotes_count,
    },
  };
}

export function profileDocument(baseUrl: string, profile: ProfileData): FetchedDocument {
  return {
    id: documentId('profile', profile.id),
    title: profileTitle(profile),
    text: profileText(profile),
    url: documentUrl(baseUrl, 'profile', profile.id),
    metadata: {
      resource: 'profile',
      type: profile.type,
      username: profile.username,
      occupation: profile.occupation,
      location: profile.location,
      created_at: profile.created_at,
      updated_at: profile.updated_at,
      followers_count: profile.followers_count,
      following_count: profile.following_count,
    },
  };
}
