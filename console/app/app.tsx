import { useEffect, useState } from 'preact/hooks';
import type { ApiProblem } from '@social-network/sdk';
import { ActivityPage } from './pages/activity.js';
import { AppsPage } from './pages/apps.js';
import { ConsentPage } from './pages/consent.js';
import { DeliveryPage } from './pages/delivery.js';
import { EndpointPage } from './pages/endpoint.js';
import { EndpointsPage, NewEndpointPage } from './pages/endpoints.js';
import { LoginPage } from './pages/login.js';
import { ModerationPage } from './pages/moderation.js';
import { SecurityPage } from './pages/security.js';
import { canManageWebhooks, onlyManagedWorkspace, WorkspacesPage } from './pages/workspaces.js';
import { href, navigate, redirect, useRoute, type Route } from './router.js';
import { session, SIGNED_OUT_EVENT } from './session.js';
import { asProblem } from './use-load.js';
import { ProblemNotice } from './ui/problem.js';
import { webhooks } from './webhooks-api.js';

type Me = Awaited<ReturnType<typeof webhooks.me>>;

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
    addEventListener(SIGNED_OUT_EVENT, signedOut);
    return () => removeEventListener(SIGNED_OUT_EVENT, signedOut);
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
    return (
      <LoginPage
        reason={reason}
        onLoggedIn={() => {
          setReason(undefined);
          setSignedIn(true);
          if (route.page === 'login') navigate({ page: 'workspaces' });
        }}
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

  const workspaceId = 'workspaceId' in route ? route.workspaceId : undefined;
  const workspace = me?.workspaces.find((w) => w.id === workspaceId);
  return (
    <>
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), document.getElementById('main')?.focus())}>
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href={href({ page: 'workspaces' })}>
          Webhook console
        </a>
        {workspace ? (
          <nav aria-label="Workspace">
            <span class="workspace-name">{workspace.name}</span>
            <a
              href={href({ page: 'endpoints', workspaceId: workspace.id })}
              aria-current={isSection(route, 'endpoints') ? 'page' : undefined}
            >
              Endpoints
            </a>
            <a
              href={href({ page: 'activity', workspaceId: workspace.id })}
              aria-current={isSection(route, 'activity') ? 'page' : undefined}
            >
              Activity
            </a>
            <a
              href={href({ page: 'apps', workspaceId: workspace.id })}
              aria-current={route.page === 'apps' ? 'page' : undefined}
            >
              Connected apps
            </a>
          </nav>
        ) : null}
        {me?.platform_role === 'moderator' ? (
          <nav aria-label="Platform">
            <a href={href({ page: 'moderation' })} aria-current={route.page === 'moderation' ? 'page' : undefined}>
              Moderation
            </a>
          </nav>
        ) : null}
        <nav aria-label="Account">
          <a href={href({ page: 'security' })} aria-current={route.page === 'security' ? 'page' : undefined}>
            Security
          </a>
        </nav>
        <button type="button" class="link" onClick={() => void logOut()}>
          Log out
        </button>
      </header>
      <ProblemNotice problem={problem} title="Could not load your workspaces." />
      {me ? <Page route={route} me={me} /> : null}
    </>
  );
}

const isSection = (route: Route, section: 'endpoints' | 'activity') =>
  section === 'activity'
    ? route.page === 'activity' || route.page === 'delivery'
    : ['endpoints', 'endpoint', 'new-endpoint'].includes(route.page);

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
          Webhooks are managed by a workspace's owners and admins.{' '}
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
  }
}

/** Replaces the current page with `to` (rendering nothing meanwhile). */
function Redirect({ to }: { to: Route }) {
  const target = href(to);
  useEffect(() => redirect(to), [target]);
  return null;
}
