/**
 * The mail of the local runtime: the local mailbox (local-mailbox.ts) behind the same mail consumer
 * the stack runs on the table stream, and `GET /local/mail?to=<address>`, which lists it (in the
 * envelope, newest first). Local only: the route table does not have it, so it is never deployed.
 */
import { rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { config } from '../../shared/config.js';
import { successResponse } from '../../shared/http/envelope.js';
import { sendMailHandler } from '../../shared/mail/send-queued-mail.js';
import type { StreamHandler } from '../../shared/ports/shard-stream-event.js';
import { LocalMailbox } from './local-mailbox.js';
import type { LocalPaths } from './http-server.js';

export const LOCAL_MAIL_PATH = '/local/mail';

export interface MailRuntime extends LocalPaths {
  mailbox: LocalMailbox;
  /** The table stream's consumer: mail items → the mailbox (as the mail Lambda sends through SES). */
  onStream: StreamHandler;
  /** Removes the temporary mailbox of `--in-memory` (a mailbox under DATA_DIR stays). */
  stop(): Promise<void>;
}

export function mailRuntime(options: { inMemory: boolean; dataDir: string }): MailRuntime {
  const mailbox = new LocalMailbox({ ...options, from: config.mailFrom });
  return {
    mailbox,
    onStream: sendMailHandler({ sender: mailbox }),
    handles: (path) => path === LOCAL_MAIL_PATH,
    stop: () => (options.inMemory ? rm(mailbox.dir, { recursive: true, force: true }) : Promise.resolve()),
    async serve(req: IncomingMessage, res: ServerResponse) {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (req.method !== 'GET') {
        res.writeHead(405, { allow: 'GET' });
        return void res.end();
      }
      const items = await mailbox.list(url.searchParams.get('to') ?? undefined);
      const answer = successResponse(200, { items });
      res.writeHead(answer.statusCode!, answer.headers as Record<string, string>);
      res.end(answer.body);
    },
  };
}
