import type { PasskeyRecord } from '../../domain/passkeys.js';
import { Passkey } from '../contract/schemas/passkeys.js';
import { declared } from './declared.js';

export const presentPasskey = (passkey: PasskeyRecord) => declared(Passkey, passkey);
