import type { LinkPage } from './link-pages.js';
import { MailPage } from './pages/mail.js';
import { ResetPasswordPage } from './pages/reset-password.js';
import { VerifyEmailPage } from './pages/verify-email.js';

/** A link page (link-pages.ts), shown without a session. */
export function LinkPageView({ page }: { page: LinkPage }) {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  switch (page) {
    case 'verify-email':
      return <VerifyEmailPage token={token} />;
    case 'reset-password':
      return <ResetPasswordPage token={token} />;
    case 'mail':
      return <MailPage />;
  }
}
