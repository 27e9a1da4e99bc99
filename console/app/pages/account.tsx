import { DeletionSection } from './account/deletion-section.js';

/** The account itself: what happens to its data (pages/account/; the export's section joins here). */
export function AccountPage() {
  return (
    <main id="main">
      <h1>Account</h1>
      <DeletionSection />
    </main>
  );
}
