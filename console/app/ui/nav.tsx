import type { ComponentChildren } from 'preact';
import { href, type Route } from '../router.js';

/** One link of the top bar's navigation, marked as the current page when `current` says so. */
export function NavLink({ to, current, children }: { to: Route; current: boolean; children: ComponentChildren }) {
  return (
    <a href={href(to)} aria-current={current ? 'page' : undefined}>
      {children}
    </a>
  );
}

/** The workspace sections, and which pages belong to each (a delivery belongs to Activity). */
export const WORKSPACE_SECTIONS = [
  { label: 'Profiles', page: 'profiles', pages: ['profiles'] },
  { label: 'Endpoints', page: 'endpoints', pages: ['endpoints', 'endpoint', 'new-endpoint'] },
  { label: 'Activity', page: 'activity', pages: ['activity', 'delivery'] },
  { label: 'Connected apps', page: 'apps', pages: ['apps'] },
  { label: 'API keys', page: 'api-keys', pages: ['api-keys'] },
  { label: 'Audit log', page: 'audit-log', pages: ['audit-log'] },
] as const;
