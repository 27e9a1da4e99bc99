import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * `npm run test:bundles`: the bundle checks of test/bundle (what each function's bundle carries and
 * leaves out, built as the CDK stack builds it), and a representative part of the e2e suite (identity, posts, reactions, a
 * webhook delivery, the MCP endpoint, passkeys) against the esbuild bundles that `cdk deploy` uploads, served by the local
 * server (`--bundles`) instead of the TypeScript sources, and the media processor's asset as CDK
 * bundles it (sharp installed for arm64: npm, a few seconds). Same settings as vitest.config.ts except
 * which files run and how the server starts.
 */
export default defineConfig({
  test: {
    ...base.test,
    include: [
      'test/bundle/**/*.test.ts',
      'test/e2e/identity.test.ts',
      'test/e2e/posts.test.ts',
      'test/e2e/reactions.test.ts',
      'test/e2e/webhooks-delivery.test.ts',
      'test/e2e/mcp.test.ts',
      // The passkey routes: the sign-in's own assertion check and the WebAuthn library, as bundled.
      'test/e2e/passkeys.test.ts',
      // Agent cards: jose, the RFC 8785 package and the card signing as bundled.
      'test/e2e/agent-cards.test.ts',
    ],
    exclude: [],
    globalSetup: ['test/bundle/global-setup.ts'],
  },
});
