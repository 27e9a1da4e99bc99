import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { Alarm, IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { EbsDeviceVolumeType } from 'aws-cdk-lib/aws-ec2';
import { consumeTableStream } from './stream-consumer.js';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Domain, EngineVersion, TLSSecurityPolicy } from 'aws-cdk-lib/aws-opensearchservice';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { RouteName } from '../shared/http/contract/route-table.js';
import { entityTags, keys } from '../shared/store/keys.js';
import { topicAlarm } from './alarms.js';
import { apiFunction } from './lambda-defaults.js';
import { newImagesOf, removalsOf } from './stream-filters.js';
import { eventSourceBatching } from './stream-event-batching.js';
import { failuresQueue } from './failures-queue.js';

/** The routes that query the index: their functions get the endpoint and read access, on roles of their own. */
export const SEARCH_ROUTES: readonly RouteName[] = ['searchProfiles', 'searchPosts'];

/** Oldest stream record the indexer has not handled: search is this stale (promised: 2 s). */
export const SEARCH_LAG_ALARM_MS = 60 * 1000;

export interface SearchIndexingProps {
  table: ITable;
  environment: Record<string, string>;
  routeFunctions: ReadonlyMap<RouteName, NodejsFunction>;
  /** Where the search alarms notify (the service's alarm topic). */
  alarmTopic: ITopic;
}

/**
 * Search in AWS (docs/search.md): an Amazon OpenSearch Service domain (one t3.small.search data
 * node, gp3, HTTPS only, encrypted, reached with SigV4 by IAM identity policies: the cost floor a
 * Serverless collection cannot go down to), fed by one Lambda on the table stream that writes one
 * `_bulk` per batch, and queried by the search routes. The index is derived from the table
 * (`npm run search:reindex` rebuilds it), so the domain may be replaced or destroyed.
 */
export class SearchIndexing extends Construct {
  readonly domain: Domain;
  readonly fn: NodejsFunction;
  /** Stream batches the indexer gave up on: those documents are stale until changed again or reindexed. */
  readonly failures: Queue;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: SearchIndexingProps) {
    super(scope, id);
    this.domain = new Domain(this, 'Domain', {
      version: EngineVersion.OPENSEARCH_2_19,
      capacity: { dataNodes: 1, dataNodeInstanceType: 't3.small.search', multiAzWithStandbyEnabled: false },
      ebs: { volumeSize: 10, volumeType: EbsDeviceVolumeType.GP3 },
      enforceHttps: true,
      tlsSecurityPolicy: TLSSecurityPolicy.TLS_1_2,
      nodeToNodeEncryption: true,
      encryptionAtRest: { enabled: true },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const endpoint = `https://${this.domain.domainEndpoint}`;

    this.failures = failuresQueue(this, 'Failures');
    this.fn = apiFunction(
      this,
      'Index',
      'functions/search-pipeline/index-documents.ts',
      { ...props.environment, SEARCH_ENDPOINT: endpoint },
      {
        timeout: Duration.seconds(60),
        description: 'Search: posts, profiles and follower counts from the table stream to OpenSearch',
      },
    );
    consumeTableStream(this.fn, props.table, {
      ...eventSourceBatching('search-index'),
      failures: this.failures,
      filters: [
        newImagesOf(entityTags.post, 'INSERT', 'MODIFY'),
        newImagesOf(entityTags.profile, 'INSERT', 'MODIFY'),
        newImagesOf(entityTags.followerCount, 'INSERT', 'MODIFY'),
        removalsOf(keys.post('').pk, keys.post('').sk),
      ],
    });
    // Index creation on first use and _bulk: read and write on the domain's indexes, nothing of the table.
    this.domain.grantIndexReadWrite('*', this.fn);

    for (const name of SEARCH_ROUTES) {
      const fn = props.routeFunctions.get(name);
      if (!fn) continue;
      fn.addEnvironment('SEARCH_ENDPOINT', endpoint);
      // A route may create a missing index (first use) and must query: index read/write, no domain config.
      this.domain.grantIndexReadWrite('*', fn);
    }

    const alarm = (name: string, description: string, metric: IMetric, threshold: number) =>
      this.alarms.push(topicAlarm(this, props.alarmTopic, name, description, metric, threshold));
    alarm(
      'IndexFailuresWaiting',
      'Stream batches the search indexer gave up on are in its failure queue: those posts and profiles are stale in search until changed again or `npm run search:reindex`.',
      this.failures.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      1,
    );
    alarm(
      'IndexerIteratorAge',
      'The search indexer is behind on the table stream: search results are more than a minute stale.',
      this.fn.metric('IteratorAge', { period: Duration.minutes(1), statistic: 'Maximum' }),
      SEARCH_LAG_ALARM_MS,
    );
    alarm(
      'IndexerErrors',
      'The search indexer Lambda failed (uncaught error or timeout): search is stale until it succeeds.',
      this.fn.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }),
      1,
    );
    alarm(
      'DomainRed',
      'The search domain is red: a primary shard is unassigned, searches fail or miss documents.',
      this.domain.metricClusterStatusRed({ period: Duration.minutes(1), statistic: 'Maximum' }),
      1,
    );
    alarm(
      'DomainWritesBlocked',
      'The search domain blocks writes (disk or memory pressure): the indexer fails until it has room (grow the volume or the node).',
      this.domain.metricClusterIndexWritesBlocked({ period: Duration.minutes(1), statistic: 'Maximum' }),
      1,
    );
  }
}
