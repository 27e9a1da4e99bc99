/** The Account page's export calls, through the typed client. */
import { unwrap, type Schemas } from '@social-network/sdk';
import { api } from './session.js';

export type DataExport = Schemas['Export'];

export const exportsApi = {
  list: () => unwrap(api.GET('/v1/me/exports', { params: { query: { limit: 5 } } })),
  request: async () => (await unwrap(api.POST('/v1/me/exports'))).export,
};
