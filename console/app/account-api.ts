/** The Account page's calls (deletion), through the typed client. */
import { unwrap } from '@social-network/sdk';
import { api } from './session.js';

export const account = {
  deletion: async () => (await unwrap(api.GET('/v1/me'))).deletion,
  deleteAccount: (password: string, when: 'now' | 'after_grace') =>
    unwrap(api.DELETE('/v1/me', { body: { password, when } })),
  cancelDeletion: () => unwrap(api.POST('/v1/me/deletion/cancel')),
};
