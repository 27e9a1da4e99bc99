import { SecondFactorSection } from './security/second-factor.js';
import { SessionsSection } from './security/sessions.js';

/** How the user logs in and where they are logged in: one section per concern. */
export function SecurityPage() {
  return (
    <main id="main">
      <h1>Security</h1>
      <SecondFactorSection />
      <SessionsSection />
    </main>
  );
}
