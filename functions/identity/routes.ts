/** The identity routes: method, path, auth, schemas and the errors each can answer with. */
import * as z from 'zod';
import { defineRoute } from '../../shared/http/contract/route.js';
import { ChangePasswordBody, CreateSessionBody, CreateUserBody, Me, PasswordChanged, Session, SessionsEnded, User, Workspace } from '../../shared/http/contract/schemas/identity.js';

export const routes = {
  createUser: defineRoute({
    method: 'POST', path: '/v1/users', handler: 'identity/create-user', tag: 'Identity',
    summary: 'Sign up: creates a user and a personal workspace owned by it.',
    auth: 'none', body: CreateUserBody, status: 201, strictLimits: 'signup',
    response: z.object({ user: User, workspace: Workspace }),
    errors: ['email_taken'],
  }),
  createSession: defineRoute({
    method: 'POST', path: '/v1/sessions', handler: 'identity/create-session', tag: 'Identity',
    summary: 'Log in: returns a session token (st_…) valid for 30 days.',
    auth: 'none', body: CreateSessionBody, status: 201, strictLimits: 'login',
    response: z.object({ session: Session, user: User }),
    errors: ['invalid_credentials'],
  }),
  deleteSession: defineRoute({
    method: 'DELETE', path: '/v1/sessions/current', handler: 'identity/delete-session', tag: 'Identity',
    summary: 'Log out: the session token stops working at once.',
    auth: 'session', status: 200, response: z.object({ logged_out: z.literal(true) }),
    errors: [],
  }),
  deleteSessions: defineRoute({
    method: 'DELETE', path: '/v1/sessions', handler: 'identity/delete-sessions', tag: 'Identity',
    summary: 'Log out everywhere: every session of the user ends, this one included.',
    auth: 'session', status: 200, response: SessionsEnded,
    errors: [],
  }),
  changePassword: defineRoute({
    method: 'PUT', path: '/v1/me/password', handler: 'identity/change-password', tag: 'Identity',
    summary: 'Changes the password; every other session of the user ends, this one stays.',
    description:
      'Changes the password; every other session of the user ends, this one stays. A wrong current_password is `403 forbidden` (the session itself is fine). Counted with the log-in limits per client IP.',
    auth: 'session', body: ChangePasswordBody, status: 200, response: PasswordChanged, strictLimits: 'login',
    errors: ['forbidden', 'invalid_state'],
  }),
  getMe: defineRoute({
    method: 'GET', path: '/v1/me', handler: 'identity/get-me', tag: 'Identity',
    summary: 'The session user and the workspaces they belong to, with their role in each.',
    auth: 'session', status: 200, response: Me, errors: [],
  }),
};
