import { DeletionSection } from './account/deletion-section.js';
import { ExportSection } from './account/export.js';

/** The account's own data: one section per concern (pages/account/). */
export function AccountPage() {
  return (
    <main id="main">
      <h1>Account</h1>
      <ExportSection />
      <DeletionSection />
    </main>
  );
}
