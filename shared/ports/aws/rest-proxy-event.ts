/**
 * A REST API's Lambda proxy event (payload 1.0) as the HTTP API's (2.0) that the route stacks read:
 * the streaming routes are reached through a REST API (the HTTP API cannot stream a response), and
 * their functions run the same middleware as every route. Header names become lower case, as the
 * HTTP API gives them; repeated headers and query parameters are joined as it joins them.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyEventV2 } from 'aws-lambda';

const joined = (
  single: Record<string, string | undefined> | null,
  multi: Record<string, string[] | undefined> | null,
  separator: string,
): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(single ?? {})) if (value !== undefined) out[name] = value;
  for (const [name, values] of Object.entries(multi ?? {})) if (values?.length) out[name] = values.join(separator);
  return out;
};

function rawQueryOf(event: APIGatewayProxyEvent): string {
  const query = new URLSearchParams();
  const multi = event.multiValueQueryStringParameters ?? {};
  for (const [name, values] of Object.entries(multi)) for (const value of values ?? []) query.append(name, value);
  if (Object.keys(multi).length === 0)
    for (const [name, value] of Object.entries(event.queryStringParameters ?? {}))
      if (value !== undefined) query.append(name, value);
  return query.toString();
}

export function httpApiEventOf(event: APIGatewayProxyEvent): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(joined(event.headers, event.multiValueHeaders, ',')))
    headers[name.toLowerCase()] = value;
  const query = joined(event.queryStringParameters, event.multiValueQueryStringParameters, ',');
  const context = event.requestContext;
  const routeKey = `${event.httpMethod} ${event.resource}`;
  return {
    version: '2.0',
    routeKey,
    rawPath: event.path,
    rawQueryString: rawQueryOf(event),
    ...(headers.cookie ? { cookies: headers.cookie.split(/;\s*/) } : {}),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(event.pathParameters ? { pathParameters: event.pathParameters } : {}),
    ...(event.stageVariables ? { stageVariables: event.stageVariables } : {}),
    ...(event.body !== null ? { body: event.body } : {}),
    isBase64Encoded: event.isBase64Encoded,
    requestContext: {
      accountId: context.accountId,
      apiId: context.apiId,
      domainName: context.domainName ?? headers.host ?? '',
      domainPrefix: context.domainPrefix ?? '',
      requestId: context.requestId,
      routeKey,
      stage: context.stage,
      time: context.requestTime ?? new Date(context.requestTimeEpoch).toISOString(),
      timeEpoch: context.requestTimeEpoch,
      http: {
        method: event.httpMethod,
        path: event.path,
        protocol: context.protocol,
        sourceIp: context.identity.sourceIp,
        userAgent: context.identity.userAgent ?? '',
      },
    },
  };
}
