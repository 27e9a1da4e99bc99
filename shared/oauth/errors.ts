/**
 * An OAuth error as RFC 6749 §5.2 (and RFC 7591 §3.2.2, RFC 7009 §2.2.1) name them: the code a
 * client acts on, a description for the person reading logs, and the status it is sent with.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'unsupported_token_type'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'access_denied'
  | 'unsupported_response_type';

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status: 400 | 401 = 400,
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}
