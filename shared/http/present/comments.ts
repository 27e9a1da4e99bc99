import type { CommentRecord } from '../../domain/posts.js';
import { Comment } from '../contract/schemas/comments.js';
import { declared } from './declared.js';

export const presentComment = (comment: CommentRecord, liked = false) =>
  declared(Comment, { ...comment, viewer_reaction: liked ? 'like' : null });
