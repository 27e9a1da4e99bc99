import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { SessionClient } from '../domain/entities.js';
import { ipPrefix } from '../domain/ip-prefix.js';

const USER_AGENT_MAX = 256;

/**
 * Where a log-in request came from, as its session keeps it: the User-Agent (cut to 256
 * characters) and the network of the client address (API Gateway's source IP). Every route that
 * creates a session (password, passkey) reads it here.
 */
export const sessionClientOf = (event: APIGatewayProxyEventV2): SessionClient => {
  const ip = event.requestContext?.http?.sourceIp;
  return {
    user_agent: event.headers?.['user-agent']?.slice(0, USER_AGENT_MAX) || null,
    ip_prefix: ip ? ipPrefix(ip) : null,
  };
};
