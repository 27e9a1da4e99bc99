/**
 * Stands in for `@aws-sdk/credential-provider-node` in the Lambda bundles (esbuild alias in
 * infra/bundling.ts). A Lambda's role credentials are in its environment, which is also the first
 * link of the SDK's default chain; the rest of that chain (SSO, INI files, IMDS, web identity, the
 * STS/SSO clients they load) is about 100 KiB per bundle that a Lambda never runs.
 * Not used locally: the local runtime runs the real default chain.
 */
interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export const defaultProvider = () => async (): Promise<Credentials> => {
  const {
    AWS_ACCESS_KEY_ID: accessKeyId,
    AWS_SECRET_ACCESS_KEY: secretAccessKey,
    AWS_SESSION_TOKEN: sessionToken,
  } = process.env;
  if (!accessKeyId || !secretAccessKey) {
    throw new Error(
      'No AWS credentials in the environment (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY); this bundle only reads the Lambda environment.',
    );
  }
  return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
};
