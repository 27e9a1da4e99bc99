import type { OperatorLinkRecord } from '../../domain/operators.js';
import { OperatorLink } from '../contract/schemas/operators.js';
import { declared } from './declared.js';

export const presentOperatorLink = (link: OperatorLinkRecord) => ({ link: declared(OperatorLink, link) });
