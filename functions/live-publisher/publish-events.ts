/** Lambda: the table stream (event log items) → the AppSync Events API of APPSYNC_EVENTS_ENDPOINT. */
import { appSyncEventPublisherFromConfig } from '../../shared/ports/aws/appsync-event-publisher.js';
import { publishEventsHandler } from './handlers.js';

// Resolved at the first batch, not at import: loading the module needs no API.
export const handler = publishEventsHandler(appSyncEventPublisherFromConfig);
