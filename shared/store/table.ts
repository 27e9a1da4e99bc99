/**
 * The single table's layout, the one definition that both the CDK stack and the local runtime
 * build the table from. Keys are generic (`pk`/`sk`, `gsi1pk`/`gsi1sk`, …); `keys.ts` says what
 * each entity puts in them.
 */
export const TABLE = {
  partitionKey: 'pk',
  sortKey: 'sk',
  indexes: [
    /** Secondary access paths: a workspace's profiles and keys, a user's workspaces, lists by time. */
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  ],
  /** Epoch seconds; DynamoDB deletes expired sessions by it. */
  ttlAttribute: 'expires_at_epoch',
  /** The outbox: event items reach the fan-out through the stream. */
  streamView: 'NEW_IMAGE',
  /** A post's copy of its author's profile, so a post reads in one request (refreshed from the profile's stream record). */
  authorCardAttribute: 'author_card',
  /**
   * What the names of the stream folds' watermarks start with (`wm_<shard id>`, store/shard-watermarks.ts),
   * on the items that hold folded counters.
   */
  watermarkPrefix: 'wm_',
  /**
   * The audit stamp (domain/audit.ts WrittenBy) a request's write leaves on the item it wrote; the
   * audit consumer reads it from the stream (store/audit-stamp.ts).
   */
  auditStampAttribute: 'written_by',
} as const;

export type TableIndexName = (typeof TABLE.indexes)[number]['name'];

/** Attributes the layout adds to an item (keys, TTL, entity tag): never part of a record. */
export const LAYOUT_ATTRIBUTES: readonly string[] = [
  TABLE.partitionKey,
  TABLE.sortKey,
  ...TABLE.indexes.flatMap((index) => [index.partitionKey, index.sortKey]),
  TABLE.ttlAttribute,
  TABLE.authorCardAttribute,
  TABLE.auditStampAttribute,
  'entity',
];
