/** The Security page's calls (second factor, sessions), through the typed client. */
import { unwrap, type Schemas } from '@social-network/sdk';
import { api } from './session.js';

export type SessionInfo = Schemas['SessionInfo'];
export type User = Schemas['User'];

export const security = {
  user: async () => (await unwrap(api.GET('/v1/me'))).user,
  startTotp: (password: string) => unwrap(api.POST('/v1/me/totp', { body: { password } })),
  confirmTotp: (code: string) => unwrap(api.POST('/v1/me/totp/confirm', { body: { code } })),
  disableTotp: (password: string, code: string) => unwrap(api.DELETE('/v1/me/totp', { body: { password, code } })),
  sessions: () => unwrap(api.GET('/v1/me/sessions')),
  endSession: (sessionId: string) =>
    unwrap(api.DELETE('/v1/me/sessions/{session_id}', { params: { path: { session_id: sessionId } } })),
};
