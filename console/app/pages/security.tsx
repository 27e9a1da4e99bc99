import { PasskeysSection } from './security/passkeys.js';

/** The account's security: each concern is a section of its own (pages/security/). */
export function SecurityPage() {
  return (
    <main id="main">
      <h1>Security</h1>
      <PasskeysSection />
    </main>
  );
}
