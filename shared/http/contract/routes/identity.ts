/** The identity routes: method, path, auth, schemas and the errors each can answer with. */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import {
  ChangePasswordBody,
  CreateSessionBody,
  CreateUserBody,
  Me,
  PasswordChanged,
  Session,
  SessionsEnded,
  User,
  Workspace,
} from '../schemas/identity.js';
import { AccountDeletion, DeleteMeBody, DeletionCancelled } from '../schemas/deletion.js';

export const routes = {
  createUser: defineRoute({
    method: 'POST',
    path: '/v1/users',
    handler: 'identity/create-user',
    tag: 'Identity',
    summary: 'Sign up: creates a user and a personal workspace owned by it.',
    auth: 'none',
    body: CreateUserBody,
    status: 201,
    strictLimits: 'signup',
    response: z.object({ user: User, workspace: Workspace }),
    errors: ['email_taken'],
    mcp: false,
  }),
  createSession: defineRoute({
    method: 'POST',
    path: '/v1/sessions',
    handler: 'identity/create-session',
    tag: 'Identity',
    summary: 'Log in: returns a session token (st_…) valid for 30 days.',
    description:
      "Log in: returns a session token (st_…) valid for 30 days. With a second factor on, the password alone answers `401 second_factor_required`; send it again with `totp_code` (the authenticator app's current code, each accepted once) or `recovery_code` (each works once). A wrong password or code is `401 invalid_credentials`. After 10 failed attempts (wrong password or wrong code; a right password waiting for its code is not one) for an email within a 15-minute window, every attempt for it answers `429 rate_limited` until the window ends, from any address and with the right password too.",
    auth: 'none',
    body: CreateSessionBody,
    status: 201,
    strictLimits: 'login',
    response: z.object({ session: Session, user: User }),
    errors: ['invalid_credentials', 'second_factor_required'],
    mcp: false,
  }),
  deleteSession: defineRoute({
    method: 'DELETE',
    path: '/v1/sessions/current',
    handler: 'identity/delete-session',
    tag: 'Identity',
    summary: 'Log out: the session token stops working at once.',
    auth: 'session',
    status: 200,
    response: z.object({ logged_out: z.literal(true) }),
    errors: [],
  }),
  deleteSessions: defineRoute({
    method: 'DELETE',
    path: '/v1/sessions',
    handler: 'identity/delete-sessions',
    tag: 'Identity',
    summary: 'Log out everywhere: every session of the user ends, this one included.',
    auth: 'session',
    status: 200,
    response: SessionsEnded,
    errors: [],
  }),
  changePassword: defineRoute({
    method: 'PUT',
    path: '/v1/me/password',
    handler: 'identity/change-password',
    tag: 'Identity',
    summary: 'Changes the password; every other session of the user ends, this one stays.',
    description:
      'Changes the password; every other session of the user ends, this one stays. A wrong current_password is `403 forbidden` (the session itself is fine). Counted with the log-in limits per client IP.',
    auth: 'session',
    body: ChangePasswordBody,
    status: 200,
    response: PasswordChanged,
    strictLimits: 'login',
    errors: ['forbidden', 'invalid_state'],
  }),
  getMe: defineRoute({
    method: 'GET',
    path: '/v1/me',
    handler: 'identity/get-me',
    tag: 'Identity',
    summary: 'The session user and the workspaces they belong to, with their role in each.',
    auth: 'session',
    status: 200,
    response: Me,
    errors: [],
  }),
  deleteMe: defineRoute({
    method: 'DELETE',
    path: '/v1/me',
    handler: 'identity/delete-me',
    tag: 'Identity',
    summary: 'Deletes the account: after a 30-day grace period (cancellable), or now.',
    description:
      'Deletes the account. From this answer on, the profiles of the workspaces the user owns read as `404` to everyone ' +
      'and leave every list, feed, thread, search and notification, as a suspension does; the user may still sign in ' +
      'during the grace period, and `POST /v1/me/deletion/cancel` restores everything. When it ends (at once for ' +
      '`when: "now"`) the erasure runs: the workspaces the user owns are erased with all their profiles, keys, ' +
      'endpoints, deliveries and connected apps; in the others the membership ends; what stays is a tombstone per ' +
      'profile keeping its username for 90 days. During the erasure and after, every credential of the user answers ' +
      '`401`. A wrong password is `401 invalid_credentials` and changes nothing; a deletion already running is ' +
      '`409 invalid_state`.',
    auth: 'session',
    body: DeleteMeBody,
    status: 200,
    response: AccountDeletion,
    strictLimits: 'login',
    errors: ['invalid_credentials', 'invalid_state'],
  }),
  cancelDeletion: defineRoute({
    method: 'POST',
    path: '/v1/me/deletion/cancel',
    handler: 'identity/cancel-deletion',
    tag: 'Identity',
    summary: "Cancels the account's scheduled deletion: everything reads as it did.",
    description:
      "Cancels the account's scheduled deletion during its grace period: the profiles read and list again as before. " +
      'Nothing scheduled (or an erasure already running) is `409 invalid_state`.',
    auth: 'session',
    status: 200,
    response: DeletionCancelled,
    errors: ['invalid_state'],
  }),
};
