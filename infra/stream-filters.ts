import { FilterCriteria, FilterRule } from 'aws-cdk-lib/aws-lambda';
import { TABLE } from '../shared/store/table.js';

type StreamEventName = 'INSERT' | 'MODIFY' | 'REMOVE';

/**
 * An event source filter: stream records of these event names whose new image carries this entity
 * tag. (CDK types FilterRule's patterns as `any`; here they are plain JSON values.)
 */
export function newImagesOf(entity: string, ...eventNames: [StreamEventName, ...StreamEventName[]]) {
  const eventName: unknown = FilterRule.or(...eventNames);
  const entityTag: unknown = FilterRule.isEqual(entity);
  return FilterCriteria.filter({ eventName, dynamodb: { NewImage: { entity: { S: entityTag } } } });
}

/** As newImagesOf, and only records whose new image has these string attributes equal to these values. */
export function newImagesWhere(
  entity: string,
  values: Record<string, string>,
  ...eventNames: [StreamEventName, ...StreamEventName[]]
) {
  const eventName: unknown = FilterRule.or(...eventNames);
  const image: Record<string, { S: unknown }> = { entity: { S: FilterRule.isEqual(entity) } };
  for (const [name, value] of Object.entries(values)) image[name] = { S: FilterRule.isEqual(value) };
  return FilterCriteria.filter({ eventName, dynamodb: { NewImage: image } });
}

/** As newImagesOf, and only records whose new image's string attribute `name` is one of `values`. */
export function newImagesWithAnyOf(
  entity: string,
  name: string,
  values: readonly [string, ...string[]],
  ...eventNames: [StreamEventName, ...StreamEventName[]]
) {
  const eventName: unknown = FilterRule.or(...eventNames);
  const entityTag: unknown = FilterRule.isEqual(entity);
  const value: unknown = FilterRule.or(...values);
  return FilterCriteria.filter({
    eventName,
    dynamodb: { NewImage: { entity: { S: entityTag }, [name]: { S: value } } },
  });
}

/**
 * An event source filter: REMOVE records of the items whose partition key starts with
 * `partitionKeyPrefix` and whose sort key is `sortKey`. The table streams new images only
 * (TABLE.streamView), so a REMOVE record carries the item's keys and no image: what was removed
 * is told by its keys, not by its entity tag.
 */
export function removalsOf(partitionKeyPrefix: string, sortKey: string) {
  const eventName: unknown = FilterRule.or('REMOVE');
  const partitionKey: unknown = FilterRule.beginsWith(partitionKeyPrefix);
  const sort: unknown = FilterRule.isEqual(sortKey);
  return FilterCriteria.filter({
    eventName,
    dynamodb: { Keys: { [TABLE.partitionKey]: { S: partitionKey }, [TABLE.sortKey]: { S: sort } } },
  });
}

/**
 * An event source filter on the keys: stream records of these event names whose sort key starts
 * with `prefix`. A REMOVE carries no image (the stream's view is NEW_IMAGE), only the keys.
 */
export function sortKeysOf(prefix: string, ...eventNames: [StreamEventName, ...StreamEventName[]]) {
  return keysBeginningWith(TABLE.sortKey, prefix, eventNames);
}

/**
 * An event source filter on the keys: stream records of these event names whose partition key
 * starts with `prefix` (the items of one kind of partition, told without their image).
 */
export function partitionKeysOf(prefix: string, ...eventNames: [StreamEventName, ...StreamEventName[]]) {
  return keysBeginningWith(TABLE.partitionKey, prefix, eventNames);
}

function keysBeginningWith(key: string, prefix: string, eventNames: readonly StreamEventName[]) {
  const eventName: unknown = FilterRule.or(...eventNames);
  const value: unknown = FilterRule.beginsWith(prefix);
  return FilterCriteria.filter({ eventName, dynamodb: { Keys: { [key]: { S: value } } } });
}

/**
 * As newImagesWhere, for new images carrying any of these entity tags: one filter where one per
 * entity would spend more of the event source's five.
 */
export function newImagesOfAnyWhere(
  entities: readonly [string, ...string[]],
  values: Record<string, string>,
  ...eventNames: [StreamEventName, ...StreamEventName[]]
) {
  const eventName: unknown = FilterRule.or(...eventNames);
  const image: Record<string, { S: unknown }> = { entity: { S: FilterRule.or(...entities) } };
  for (const [name, value] of Object.entries(values)) image[name] = { S: FilterRule.isEqual(value) };
  return FilterCriteria.filter({ eventName, dynamodb: { NewImage: image } });
}

/**
 * An event source filter: stream records of these event names whose new image carries the map
 * attribute `attribute` (told by its string field `field`: a filter's `exists` matches leaves only),
 * whatever the entity.
 */
export function newImagesCarrying(
  attribute: string,
  field: string,
  ...eventNames: [StreamEventName, ...StreamEventName[]]
) {
  const eventName: unknown = FilterRule.or(...eventNames);
  const present: unknown = FilterRule.exists();
  return FilterCriteria.filter({
    eventName,
    dynamodb: { NewImage: { [attribute]: { M: { [field]: { S: present } } } } },
  });
}
