/**
 * What the editor says about phone numbers, in one place, so every field that asks for one says
 * the same. Phone Number Format → Normalize (the default, helpers/phoneNumber.ts) turns a local
 * Indonesian 0812… into +62812…, so the texts say so instead of suggesting only +62… works.
 */

import { SMS_ALLOWED_NUMBER } from '../schemas/common';

/** Shown greyed in every empty phone field: both spellings the node accepts. */
export const PHONE_PLACEHOLDER = 'e.g. 0812 3456 7890 or +6281234567890';

/** The service's rule for SMS, as the SMS fields' descriptions state it. */
export const SMS_INDONESIA_ONLY = `SMS can only go to ${SMS_ALLOWED_NUMBER} for now`;

/** Below an SMS number field. */
export const SMS_PHONE_HINT = `Only ${SMS_ALLOWED_NUMBER}; a local 0812… is sent as +62812…`;

/** Below a chat number field (From, To): any country, and the local Indonesian form. */
export const CHAT_PHONE_HINT = 'With the country code, e.g. +62812…; a local Indonesian 0812… is sent as +62812…';

/** Where a description explains the conversion and how to turn it off. */
export const LOCAL_NUMBERS_NOTE =
	'With Options → Phone Number Format on Normalize (the default), spaces, dashes and a local 0812… are fine too: they are sent as +62812…';

/** The description of an SMS-only number field. */
export const SMS_RECIPIENT_DESCRIPTION = `Recipient in E.164 format (+62812…). ${LOCAL_NUMBERS_NOTE}. ${SMS_INDONESIA_ONLY}.`;
