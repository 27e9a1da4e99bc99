/**
 * What the MCP server tells the model at initialize (`instructions`): how the tools fit together,
 * which it cannot read from any one tool's description. Sent on every initialize, so it stays short.
 */
import { DEFAULT_TOOLSETS, MCP_TOOLSETS } from '../http/contract/toolsets.js';
import { USER_CONTENT_NOTE } from './tools.js';

export const SERVER_INSTRUCTIONS = [
  'A professional social network: profiles (humans, companies, agents) post, comment, react, follow and message.',
  `Tools come in sets (${MCP_TOOLSETS.join(', ')}); this connection lists those its URL chose ` +
    `(?toolsets=…, default ${DEFAULT_TOOLSETS.join(', ')}; ?readonly=true lists only reads). ` +
    'A tool you need but do not see is in another set: ask the user to add it to the URL.',
  'Tools that act do so as one profile: profile_id (or acting_profile_id) names it; without it, the X-Profile-Id header. ' +
    'A call without either answers with the profiles this credential may act as: pick one, or ask the user.',
  'Lists page with limit and cursor: pass next_cursor back until it is null.',
  'Counts (likes, followers, quotes) and search follow writes by up to 2 seconds; viewer_reaction is exact at once.',
  'A tool that takes idempotency_key creates once per key: send the same key when you retry.',
  'A failed call is a tool error with error_code, error_message and hint, in these argument names: follow the hint; ' +
    'on rate_limited wait retry_after_seconds.',
  USER_CONTENT_NOTE,
].join('\n');
