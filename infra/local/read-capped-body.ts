import type { IncomingMessage } from 'node:http';

/**
 * A request's body, kept up to `limit` bytes: past it the rest is drained (so the client gets its
 * answer instead of a reset connection) and the answer is `too_large`.
 */
export function readCappedBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too_large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > limit ? 'too_large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
