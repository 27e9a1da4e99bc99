/** Who may act on an operator link: its operator answers, either side ends; anyone else is told it does not exist. */
import type { OperatorLinkRecord } from '../domain/operators.js';
import { notFound } from '../http/contract/errors.js';
import { getOperatorLink } from '../store/operators.js';

export type LinkSide = 'operator' | 'either';

/** The link, read consistently, when the acting profile is on `side` of it; 404 otherwise (as for an unknown id). */
export async function linkForSide(
  linkId: string,
  actingProfileId: string,
  side: LinkSide,
): Promise<OperatorLinkRecord> {
  const link = await getOperatorLink(linkId);
  const onSide =
    link !== undefined &&
    (link.operator_profile_id === actingProfileId || (side === 'either' && link.agent_profile_id === actingProfileId));
  if (!link || !onSide) throw notFound('Operator link');
  return link;
}
