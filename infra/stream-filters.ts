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
