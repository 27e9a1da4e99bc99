import { PasskeysSection } from './security/passkeys.js';
import { SecondFactorSection } from './security/second-factor.js';
import { SessionsSection } from './security/sessions.js';

/** How the user logs in and where they are logged in: one section per concern (pages/security/). */
export function SecurityPage() {
  return (
    <main id="main">
      <h1>Security</h1>
      <PasskeysSection />
      <SecondFactorSection />
      <SessionsSection />
    </main>
  );
}
