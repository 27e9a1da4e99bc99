/**
 * The errors the webhook operations of the API answer with, each with a hint that names the way
 * out. Typed errors of the ground floor (shared/errors.ts): the HTTP layer maps them to statuses.
 */
import { config } from '../config.js';
import { AppError } from '../errors.js';

export const endpointNotFound = () =>
  new AppError('not_found', {
    message: 'Webhook endpoint not found.',
    hint: 'Use an id from GET /v1/workspaces/{workspace_id}/webhook-endpoints of this workspace.',
  });

export const endpointRevoked = () =>
  new AppError('invalid_state', {
    message: 'This webhook endpoint is revoked and cannot be changed.',
    hint: 'Revocation is permanent; create a new endpoint with POST /v1/workspaces/{workspace_id}/webhook-endpoints.',
  });

export const endpointChangedMeanwhile = () =>
  new AppError('invalid_state', {
    message: 'The endpoint changed meanwhile.',
    hint: 'Read the endpoint again and retry.',
  });

export const endpointNotActive = () =>
  new AppError('invalid_state', {
    message: 'The endpoint is not active.',
    hint: 'A disabled endpoint can be re-enabled with POST .../webhook-endpoints/{webhook_endpoint_id}/enable; a revoked one cannot receive deliveries.',
  });

/** The cap on active endpoints (WEBHOOK_MAX_ACTIVE_ENDPOINTS) is reached: the way out is in the hint. */
export const activeEndpointLimit = () =>
  new AppError('invalid_state', {
    message: `This workspace already has ${config.webhookMaxActiveEndpoints} active webhook endpoints, the most it may have.`,
    hint: 'Revoke an endpoint you no longer need (DELETE .../webhook-endpoints/{webhook_endpoint_id}) or send several event types and profiles to one endpoint.',
  });

export const deliveryNotFound = () =>
  new AppError('not_found', {
    message: 'Webhook delivery not found.',
    hint: 'Use an id from GET /v1/workspaces/{workspace_id}/webhook-deliveries of this workspace.',
  });
