import { FilterCriteria, FilterRule } from 'aws-cdk-lib/aws-lambda';

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

/**
 * An event source filter on the keys: stream records of these event names whose sort key starts
 * with `prefix`. A REMOVE carries no image (the stream's view is NEW_IMAGE), only the keys.
 */
export function sortKeysOf(prefix: string, ...eventNames: [StreamEventName, ...StreamEventName[]]) {
  const eventName: unknown = FilterRule.or(...eventNames);
  const sortKey: unknown = FilterRule.beginsWith(prefix);
  return FilterCriteria.filter({ eventName, dynamodb: { Keys: { sk: { S: sortKey } } } });
}
