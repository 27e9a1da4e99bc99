/** How every consumer logs input it cannot read, so an operator finds them all by one message shape. */
import { logger } from '../logger.js';

/** A stream record whose image is not what its consumer reads (`malformed <what> on the stream`). */
export function logMalformedRecord(what: string, sequenceNumber: string, reason: string): void {
  logger.error(`malformed ${what} on the stream`, { sequence_number: sequenceNumber, reason });
}

/** A queue message whose body is not what its consumer reads (`malformed <what>`). */
export function logMalformedMessage(what: string, messageId: string, reason: string): void {
  logger.error(`malformed ${what}`, { messageId, reason });
}
