import type { SessionRecord } from '../../domain/entities.js';
import { SessionInfo } from '../contract/schemas/security.js';
import { declaredWith } from './declared.js';

/** A session as its user sees it in the list; never its secret's hash. */
export const presentSessionInfo = (session: SessionRecord, currentId: string) =>
  declaredWith(SessionInfo, session, { current: session.id === currentId });
