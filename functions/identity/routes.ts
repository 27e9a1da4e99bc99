/** The identity routes: method, path, auth, schemas and the errors each can answer with. */
import * as z from 'zod';
import { defineRoute } from '../../shared/http/contract/route.js';
import { CreateSessionBody, CreateUserBody, Me, Session, User, Workspace } from '../../shared/http/contract/schemas/identity.js';

export const routes = {
  createUser: defineRoute({
    method: 'POST', path: '/v1/users', handler: 'identity/create-user', tag: 'Identity',
    summary: 'Sign up: creates a user and a personal workspace owned by it.',
    auth: 'none', body: CreateUserBody, status: 201,
    response: z.object({ user: User, workspace: Workspace }),
    errors: ['email_taken'],
  }),
  createSession: defineRoute({
    method: 'POST', path: '/v1/sessions', handler: 'identity/create-session', tag: 'Identity',
    summary: 'Log in: returns a session token (st_…) valid for 30 days.',
    auth: 'none', body: CreateSessionBody, status: 201,
    response: z.object({ session: Session, user: User }),
    errors: ['invalid_credentials'],
  }),
  deleteSession: defineRoute({
    method: 'DELETE', path: '/v1/sessions/current', handler: 'identity/delete-session', tag: 'Identity',
    summary: 'Log out: the session token stops working at once.',
    auth: 'session', status: 200, response: z.object({ logged_out: z.literal(true) }),
    errors: [],
  }),
  getMe: defineRoute({
    method: 'GET', path: '/v1/me', handler: 'identity/get-me', tag: 'Identity',
    summary: 'The session user and the workspaces they belong to, with their role in each.',
    auth: 'session', status: 200, response: Me, errors: [],
  }),
};
