/**
 * Lambda: the table stream, filtered to new images carrying an audit stamp (store/audit-stamp.ts)
 * → the workspace's audit log. Every image with a stamp is one audited write (an unstamped update
 * clears the stamp), and the entry is keyed by the stamp's entry id (its request's, or its MCP tool
 * call's), so a batch delivered again writes the same entries again: the event source takes no
 * partial answer.
 */
import { entryOf } from '../../shared/domain/audit.js';
import { StampedImage } from '../../shared/audit/stamp-schema.js';
import { routeList } from '../../shared/http/contract/route-table.js';
import { decodeImage } from '../../shared/pipeline/decode.js';
import { streamHandler } from '../../shared/pipeline/stream-consumer.js';
import { recordAuditEntries } from '../../shared/store/audit-log.js';

/** The operation id of each route by its handler (the stamp names the handler: the API's Lambdas do not carry the table). */
const operationOf = new Map(routeList.map((route) => [route.handler, route.name]));

export const handler = streamHandler(
  {
    records: 'audit stamp',
    failure: 'audit entry not recorded',
    select: (record) => {
      const image = record.dynamodb?.NewImage;
      if (!image?.written_by) return undefined;
      const decoded = decodeImage(StampedImage, image);
      return decoded.ok ? { ok: true, record: decoded.record.written_by } : decoded;
    },
    concurrency: 8,
    each: (stamp) =>
      recordAuditEntries([
        { workspaceId: stamp.workspace_id, entry: entryOf(stamp, operationOf.get(stamp.route) ?? stamp.route) },
      ]),
    describe: (stamp) => ({ request_id: stamp.request_id, workspace_id: stamp.workspace_id }),
  },
  { reportBatchItemFailures: false },
);
