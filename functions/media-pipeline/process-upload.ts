// Placeholder so the stack synthesises on branch media-infra; the handler is built on branch media-core.
export const handler = (): never => {
  throw new Error('built on branch media-core');
};
