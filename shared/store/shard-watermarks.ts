/**
 * Exactly-once folds from the table stream (store/counter-fold.ts, store/notification-groups.ts):
 * an item a fold writes keeps, per stream shard, the sequence number of the last record it folded
 * (the watermark), and each fold is conditioned on it, so a batch delivered again (a retry, an
 * overlap after a partial failure, a replay after a restart) adds only the records after it.
 *
 * A watermark is `<sequence number, zero-padded>|<epoch seconds it was written>`: the padding makes
 * string order sequence order, the time lets watermarks be pruned once no record at or before them
 * can be delivered again (how long that is depends on the consumer's event source: `keepSeconds`),
 * so the item stays small. A fold that is refused (another fold moved the item meanwhile) goes
 * again, a bounded number of rounds (`foldInRounds`).
 */
import { epochSeconds } from './epoch.js';
import { TABLE } from './table.js';

export interface FoldSettings {
  now: Date;
  /** How long a shard's watermark is kept after its last fold: longer than any redelivery of its records. */
  keepSeconds: number;
}

/** The stream keeps records 24 h; an hour's margin for clocks and in-flight retries. */
export const WHOLE_STREAM_KEEP_SECONDS = 25 * 3600;

/** DynamoDB Streams sequence numbers are 21 to 40 digits. */
const SEQUENCE_DIGITS = 40;

/** A sequence number padded so that string order is sequence order. */
export const paddedSequence = (sequenceNumber: string) => sequenceNumber.padStart(SEQUENCE_DIGITS, '0');

/** The attribute holding a shard's watermark. */
export const watermarkAttribute = (shardId: string) => `${TABLE.watermarkPrefix}${shardId}`;

/** The records of a batch in sequence order. */
export const inSequenceOrder = <T extends { sequenceNumber: string }>(records: readonly T[]): T[] =>
  [...records].sort((a, b) => (paddedSequence(a.sequenceNumber) < paddedSequence(b.sequenceNumber) ? -1 : 1));

/** The watermark after folding up to `last` (in sequence order) at `now`. */
export const watermarkAfter = (last: { sequenceNumber: string }, now: Date) =>
  `${paddedSequence(last.sequenceNumber)}|${epochSeconds(now)}`;

/** The padded sequence number a stored watermark has folded up to. */
export const foldedThrough = (watermark: string) => watermark.slice(0, watermark.indexOf('|'));

/** The records (in sequence order) after a stored watermark: all of them when there is none. */
export const afterWatermark = <T extends { sequenceNumber: string }>(
  inOrder: readonly T[],
  watermark: string | undefined,
): T[] => {
  if (watermark === undefined) return [...inOrder];
  const folded = foldedThrough(watermark);
  return inOrder.filter((record) => paddedSequence(record.sequenceNumber) > folded);
};

/**
 * The watermarks on an item of shards not folded for longer than `keepSeconds` (never `moving`,
 * the one a fold is moving), as `[attribute, value]`: a prune is conditioned on them unchanged.
 */
export function staleWatermarks(
  item: Record<string, unknown> | undefined,
  settings: FoldSettings,
  moving?: string,
): [string, string][] {
  const oldest = epochSeconds(settings.now) - settings.keepSeconds;
  return Object.entries(item ?? {}).filter(
    (entry): entry is [string, string] =>
      entry[0] !== moving &&
      entry[0].startsWith(TABLE.watermarkPrefix) &&
      typeof entry[1] === 'string' &&
      Number(entry[1].slice(entry[1].indexOf('|') + 1)) < oldest,
  );
}

/** A round's outcome: the fold's result, or the state the next round starts from (it was refused). */
export type RoundOutcome<State, Result> = { done: Result } | { again: State };

/**
 * Runs a fold's conditional write in rounds: each refused round hands the next the state it learnt
 * (the watermark or version it was refused on), at most `maxRounds` rounds, then it fails (the
 * batch is retried by its consumer) rather than spin on an item others keep moving.
 */
export async function foldInRounds<State, Result>(
  what: string,
  maxRounds: number,
  first: State,
  round: (state: State) => Promise<RoundOutcome<State, Result>>,
): Promise<Result> {
  const go = async (state: State, made: number): Promise<Result> => {
    const outcome = await round(state);
    if ('done' in outcome) return outcome.done;
    if (made >= maxRounds) throw new Error(`${what} refused ${maxRounds} times in a row`);
    return go(outcome.again, made + 1);
  };
  return go(first, 1);
}
