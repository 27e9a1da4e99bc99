import type { MessageRecord } from '../../domain/social.js';
import { Message } from '../contract/schemas/messages.js';
import { declared } from './declared.js';

export const presentMessage = (message: MessageRecord) => declared(Message, message);
