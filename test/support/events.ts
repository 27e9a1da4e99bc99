import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { localContext } from '../../infra/local/lambda-context.js';

/** A minimal API Gateway v2 event, for invoking a middy handler in-process. */
export function apiEvent(
  overrides: Partial<APIGatewayProxyEventV2> & { method?: string } = {},
): APIGatewayProxyEventV2 {
  const { method = 'POST', ...rest } = overrides;
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: '/test',
    rawQueryString: '',
    headers: {},
    isBase64Encoded: false,
    requestContext: {
      accountId: 'test',
      apiId: 'test',
      domainName: 'localhost',
      domainPrefix: 'test',
      requestId: 'r',
      routeKey: '$default',
      stage: '$default',
      time: '',
      timeEpoch: 0,
      http: { method, path: '/test', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' },
    },
    ...rest,
  };
}

type Lambda = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

export async function invoke(handler: Lambda, event: APIGatewayProxyEventV2) {
  const result = await handler(event, localContext('test'));
  return { status: result.statusCode, headers: result.headers ?? {}, body: JSON.parse(result.body ?? 'null') };
}
