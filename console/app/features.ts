/**
 * Which optional API operations the served OpenAPI document has, decided when the console is
 * bundled (console/server/build-assets.ts) from the same document the API serves. The console
 * shows server-side delivery filters, paging and endpoint recovery only when the API has them.
 */
export interface ConsoleFeatures {
  /** GET …/webhook-deliveries takes status, event_type, webhook_endpoint_id, since, until. */
  deliveryFilters: boolean;
  /** GET …/webhook-deliveries takes limit and cursor and answers next_cursor. */
  deliveryPaging: boolean;
  /** POST …/webhook-endpoints/{id}/recover exists. */
  recover: boolean;
}

declare const __CONSOLE_FEATURES__: ConsoleFeatures | undefined;

export const features: ConsoleFeatures =
  typeof __CONSOLE_FEATURES__ === 'object' && __CONSOLE_FEATURES__
    ? __CONSOLE_FEATURES__
    : { deliveryFilters: false, deliveryPaging: false, recover: false };
