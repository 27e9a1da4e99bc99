/** Whether a profile record is suspended (moderation sets `suspended_at`): it leaves search. */
export const isSuspended = (profile: object): boolean =>
  typeof (profile as { suspended_at?: unknown }).suspended_at === 'string';
