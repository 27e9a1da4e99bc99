import { useEffect, useState } from 'preact/hooks';
import type { ApiProblem } from '@social-network/sdk';
import { ActivityPage } from './pages/activity.js';
import { ApiKeysPage } from './pages/api-keys.js';
import { AppsPage } from './pages/apps.js';
import { AuditLogPage } from './pages/audit-log.js';
import { ConsentPage } from './pages/consent.js';
import { DeliveryPage } from './pages/delivery.js';
import { EndpointPage } from './pages/endpoint.js';
import { EndpointsPage, NewEndpointPage } from './pages/endpoints.js';
import { LoginPage } from './pages/login.js';
import { SignUpPage } from './pages/signup.js';
import { ModerationPage } from './pages/moderation.js';
import { ProfilesPage } from './pages/profiles.js';
import { SecurityPage } from './pages/security.js';
import { AccountPage } from './pages/account.js';
import { canManageWebhooks, onlyManagedWorkspace, WorkspacesPage } from './pages/workspaces.js';
import { href, navigate, redirect, useRoute, type Route } from './router.js';
import { session, SIGNED_IN_EVENT, SIGNED_OUT_EVENT } from './session.js';
import { asProblem } from './use-load.js';
import { NavLink, WORKSPACE_SECTIONS } from './ui/nav.js';
import { ProblemNotice } from './ui/problem.js';
import { webhooks } from './webhooks-api.js';

type Me = Awaited<ReturnType<typeof webhooks.me>>;

/**
 * The pages of the account itself (not of one workspace), in the top bar's Account navigation.
 * Each issue's page (Security, Mail when local, Account, the audit log) is one entry here.
 */
const accountPages = (me: Me): { label: string; to: Route }[] => [
  { label: 'Security', to: { page: 'security' } },
  { label: 'Account', to: { page: 'account' } },
  ...(me.platform_role === 'moderator' ? [{ label: 'Moderation', to: { page: 'moderation' } as Route }] : []),
];

/**
 * The local runtime listens on the loopback address only, so a console served from a loopback host
 * is the local one, where the Mail page reads the local mailbox (it has no counterpart in AWS).
 */
const servedLocally = () => ['localhost', '127.0.0.1', '[::1]'].includes(location.hostname);

export function App() {
  const route = useRoute();
  const [signedIn, setSignedIn] = useState(() => Boolean(session.token()));
  const [reason, setReason] = useState<string>();
  const [me, setMe] = useState<Me>();
  const [problem, setProblem] = useState<ApiProblem>();

  useEffect(() => {
    const signedOut = () => {
      setSignedIn(false);
      setMe(undefined);
      setReason('Your session has ended. Log in again.');
    };
    const signedIn = () => setSignedIn(true);
    addEventListener(SIGNED_OUT_EVENT, signedOut);
    addEventListener(SIGNED_IN_EVENT, signedIn);
    return () => {
      removeEventListener(SIGNED_OUT_EVENT, signedOut);
      removeEventListener(SIGNED_IN_EVENT, signedIn);
    };
  }, []);

  useEffect(() => {
    if (!signedIn) return;
    webhooks.me().then(setMe, (error) => setProblem(asProblem(error)));
  }, [signedIn]);

  // Move focus to the page's heading on navigation, so keyboard and screen reader users start there.
  useEffect(() => {
    const heading = document.querySelector<HTMLElement>('main h1');
    heading?.setAttribute('tabindex', '-1');
    heading?.focus();
  }, [route, me]);

  if (!signedIn) {
    const onLoggedIn = () => {
      setReason(undefined);
      setSignedIn(true);
      if (route.page === 'login' || route.page === 'signup') navigate({ page: 'workspaces' });
    };
    if (route.page === 'signup') return <SignUpPage onLoggedIn={onLoggedIn} />;
    return (
      <LoginPage
        reason={reason}
        purpose={route.page === 'oauth-consent' ? 'consent' : 'console'}
        onLoggedIn={onLoggedIn}
      />
    );
  }

  const logOut = async () => {
    await webhooks.logOut().catch(() => undefined);
    session.clear();
    setSignedIn(false);
    setMe(undefined);
    setReason('You are logged out.');
  };

  // The workspace navigation stays on pages of no workspace (Moderation, the consent page): the
  // last workspace visited, or the only one there is to manage.
  if ('workspaceId' in route) lastWorkspaceId = route.workspaceId;
  const workspace =
    me?.workspaces.find((w) => w.id === lastWorkspaceId && canManageWebhooks(w.role)) ??
    (me ? onlyManagedWorkspace(me) : undefined);
  return (
    <>
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), document.getElementById('main')?.focus())}>
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href={href({ page: 'workspaces' })}>
          Account console
        </a>
        {workspace ? (
          <nav aria-label="Workspace">
            <a class="workspace-name" href={href({ page: 'workspaces' })} title="Workspaces">
              {workspace.name}
            </a>
            {WORKSPACE_SECTIONS.map((section) => (
              <NavLink
                key={section.page}
                to={{ page: section.page, workspaceId: workspace.id }}
                current={'workspaceId' in route && (section.pages as readonly string[]).includes(route.page)}
              >
                {section.label}
              </NavLink>
            ))}
          </nav>
        ) : null}
        <nav aria-label="Account">
          {me
            ? accountPages(me).map((entry) => (
                <NavLink key={entry.label} to={entry.to} current={route.page === entry.to.page}>
                  {entry.label}
                </NavLink>
              ))
            : null}
          {me && servedLocally() ? (
            <a href={`${location.pathname.replace(/\/+$/, '')}/mail?to=${encodeURIComponent(me.user.email)}`}>Mail</a>
          ) : null}
          {me ? <span class="user-email">{me.user.email}</span> : null}
          <button type="button" class="link" onClick={() => void logOut()}>
            Log out
          </button>
        </nav>
      </header>
      <ProblemNotice problem={problem} title="Could not load your workspaces." />
      {me ? <Page route={route} me={me} /> : null}
    </>
  );
}

/** The workspace the navigation shows on pages that belong to none (kept for the page's lifetime). */
let lastWorkspaceId: string | undefined;

function Page({ route, me }: { route: Route; me: Me }) {
  if (route.page === 'moderation') {
    return me.platform_role === 'moderator' ? (
      <ModerationPage />
    ) : (
      <main id="main">
        <h1 tabIndex={-1}>Moderators only</h1>
        <p>The moderation queue is for the platform's moderators.</p>
      </main>
    );
  }
  if (route.page === 'oauth-consent') return <ConsentPage query={route.query} me={me} />;
  if (route.page === 'security') return <SecurityPage />;
  if (route.page === 'account') return <AccountPage />;
  if (!('workspaceId' in route)) {
    const only = onlyManagedWorkspace(me);
    return only ? <Redirect to={{ page: 'endpoints', workspaceId: only.id }} /> : <WorkspacesPage me={me} />;
  }
  const workspace = me.workspaces.find((w) => w.id === route.workspaceId);
  if (!workspace || !canManageWebhooks(workspace.role)) {
    return (
      <main id="main">
        <h1 tabIndex={-1}>No access to this workspace</h1>
        <p>
          A workspace's endpoints, API keys and connected apps are managed by its owners and admins
          {workspace ? ', and you are a member of this one' : ''}.{' '}
          <a href={href({ page: 'workspaces' })}>Choose another workspace</a>.
        </p>
      </main>
    );
  }
  switch (route.page) {
    case 'endpoints':
      return <EndpointsPage workspaceId={route.workspaceId} />;
    case 'new-endpoint':
      return <NewEndpointPage workspaceId={route.workspaceId} />;
    case 'endpoint':
      return <EndpointPage key={route.endpointId} workspaceId={route.workspaceId} endpointId={route.endpointId} />;
    case 'activity':
      return <ActivityPage workspaceId={route.workspaceId} />;
    case 'delivery':
      return <DeliveryPage key={route.deliveryId} workspaceId={route.workspaceId} deliveryId={route.deliveryId} />;
    case 'apps':
      return <AppsPage workspaceId={route.workspaceId} />;
    case 'profiles':
      return <ProfilesPage workspaceId={route.workspaceId} />;
    case 'api-keys':
      return <ApiKeysPage workspaceId={route.workspaceId} />;
    case 'audit-log':
      return <AuditLogPage workspaceId={route.workspaceId} />;
  }
}

/** Replaces the current page with `to` (rendering nothing meanwhile). */
function Redirect({ to }: { to: Route }) {
  const target = href(to);
  useEffect(() => redirect(to), [target]);
  return null;
}
