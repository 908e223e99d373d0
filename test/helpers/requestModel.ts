import { COMBINED_PATH, SMS_PATH, WA_MESSAGE_PATH } from '../../sandbox/server';
import { validateRequest } from '../../sandbox/validate';

/**
 * The request body each send builds from its parameters, derived from the documented field
 * mapping (README / project notes), not from the node's code. Used two ways: for generated valid
 * inputs it is the exact body the sandbox must receive; for generated invalid inputs it is fed to
 * the sandbox's own validator (sandbox/validate.ts, an independent reading of the spec) to confirm
 * the input really is invalid before the node is expected to refuse it.
 */

export type SendKind = 'sms' | 'media' | 'template' | 'combined';

export const SEND_KINDS: readonly SendKind[] = ['sms', 'media', 'template', 'combined'];

export const ENDPOINT: Record<SendKind, string> = {
	sms: SMS_PATH,
	media: WA_MESSAGE_PATH,
	template: WA_MESSAGE_PATH,
	combined: COMBINED_PATH,
};

export const OPERATION: Record<SendKind, { resource: string; operation: string }> = {
	sms: { resource: 'sms', operation: 'send' },
	media: { resource: 'chatMessage', operation: 'sendMedia' },
	template: { resource: 'chatMessage', operation: 'sendTemplate' },
	combined: { resource: 'combined', operation: 'sendWithFailover' },
};

type Params = Record<string, unknown>;

/** How the node reads a text field: numbers and booleans become text; identifiers and links are trimmed. */
function text(value: unknown, trim = false): unknown {
	if (value === undefined) return '';
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	if (typeof value === 'string' && trim) return value.trim();
	return value;
}

function entries(collection: unknown, key: string): Params[] {
	const value = (collection as Params | undefined)?.[key];
	if (Array.isArray(value)) return value as Params[];
	if (value !== null && typeof value === 'object') return [value as Params];
	return [];
}

function componentsFromFields(params: Params): unknown[] {
	const components: unknown[] = [];
	const header = text(params.headerImageUrl, true);
	if (header !== '') components.push({ type: 'header', parameters: [{ type: 'image', image: { link: header } }] });
	components.push({
		type: 'body',
		parameters: entries(params.bodyParameters, 'parameter').map((entry) => ({ type: 'text', text: text(entry.text) })),
	});
	for (const button of entries(params.quickReplyButtons, 'button')) {
		components.push({
			type: 'button',
			sub_type: 'quick_reply',
			index: text(button.index, true),
			parameters: [{ type: 'payload', payload: text(button.payload) }],
		});
	}
	const [url] = entries(params.urlButton, 'button');
	if (url) {
		const index = text(url.index, true);
		components.push({
			type: 'button',
			sub_type: 'url',
			index: index === '' ? '0' : index,
			parameters: [{ type: 'text', text: text(url.text) }],
		});
	}
	return components;
}

const isPlainObject = (value: unknown): value is Params =>
	value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * JSON mode: a string is parsed (blank = nothing), then the spec's defaults are filled in where a
 * key is left out — a component's `type` (button when it has `sub_type` or `index`, else body),
 * a body parameter's `type` (text), a button's `sub_type` (quick_reply), a URL button's `index`
 * (0) — and a whole-number index becomes text.
 */
function componentsFromJson(value: unknown): unknown {
	let components = value;
	if (typeof value === 'string') {
		if (value.trim() === '') return undefined;
		try {
			components = JSON.parse(value) as unknown;
		} catch {
			return Symbol.for('invalid JSON');
		}
	}
	if (!Array.isArray(components)) return components;
	return components.map((entry: unknown) => {
		if (!isPlainObject(entry)) return entry;
		const component: Params = { ...entry };
		if (component.type === undefined) component.type = 'sub_type' in component || 'index' in component ? 'button' : 'body';
		if (component.type === 'body' && Array.isArray(component.parameters)) {
			component.parameters = component.parameters.map((parameter: unknown) =>
				isPlainObject(parameter) && parameter.type === undefined ? { ...parameter, type: 'text' } : parameter,
			);
		}
		if (component.type === 'button') {
			if (component.sub_type === undefined) component.sub_type = 'quick_reply';
			if (component.sub_type === 'url' && component.index === undefined) component.index = '0';
			if (Number.isInteger(component.index)) component.index = String(component.index);
		}
		return component;
	});
}

function templateMessage(params: Params): Params {
	return {
		from: text(params.from, true),
		to: text(params.to, true),
		type: 'template',
		template: {
			name: text(params.templateName, true),
			language: {
				policy: text((params.options as Params | undefined)?.languagePolicy ?? 'deterministic', true),
				code: text(params.languageCode, true),
			},
			components:
				params.componentsInputMode === 'json' ? componentsFromJson(params.componentsJson) : componentsFromFields(params),
		},
	};
}

/** The body the send should POST for these (resolved) parameters. */
export function requestFor(kind: SendKind, params: Params): Params {
	switch (kind) {
		case 'sms':
			return { phone_number: text(params.phoneNumber, true), message: text(params.message) };
		case 'media': {
			const type = params.mediaType as string;
			const caption = type === 'image' ? text(params.caption) : '';
			return {
				from: text(params.from, true),
				to: text(params.to, true),
				type,
				// Spec: recipient_type defaults to "individual"; the node always sends it.
				recipient_type: 'individual',
				[type]: { link: text(params.mediaUrl, true), ...(caption === '' ? {} : { caption }) },
			};
		}
		case 'template':
			return templateMessage(params);
		case 'combined':
			return {
				chat: templateMessage(params),
				sms: { phone_number: text(params.smsPhoneNumber, true), message: text(params.smsMessage) },
			};
	}
}

/** The sandbox validator's verdict on a body as it would cross the wire: null = accepted. */
export function sandboxVerdict(kind: SendKind, body: Params): string | null {
	let wire: unknown;
	try {
		wire = JSON.parse(JSON.stringify(body)) as unknown;
	} catch (error) {
		// A body that cannot even be serialised (e.g. nested too deep) could never be sent.
		return `not serialisable: ${error instanceof Error ? error.message : String(error)}`;
	}
	return validateRequest(ENDPOINT[kind], wire);
}
