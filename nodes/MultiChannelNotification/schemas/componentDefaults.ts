/**
 * Components (JSON) may leave out what the spec marks "(default)" in "Component object kinds":
 * a component's `type` (button when it has `sub_type` or `index`, else body), a body
 * parameter's `type` (text), a button's `sub_type` (quick_reply) and a URL button's `index`
 * (0, spec: "default 0"). An `index` given as a whole number becomes the string the service
 * takes. Everything else is left for the schema to judge.
 */

type JsonObject = Record<string, unknown>;

/** Spec: a URL button's index is "string position of the button; default 0". */
export const URL_BUTTON_DEFAULT_INDEX = '0';

export const isObject = (value: unknown): value is JsonObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

export function withComponentDefaults(value: unknown): unknown {
	if (!Array.isArray(value)) return value;
	return value.map((entry: unknown) => {
		if (!isObject(entry)) return entry;
		const component: JsonObject = { ...entry };
		if (component.type === undefined) {
			component.type = 'sub_type' in component || 'index' in component ? 'button' : 'body';
		}
		if (component.type === 'body' && Array.isArray(component.parameters)) {
			component.parameters = component.parameters.map((parameter: unknown) =>
				isObject(parameter) && parameter.type === undefined ? { type: 'text', ...parameter } : parameter,
			);
		}
		if (component.type === 'button') {
			if (component.sub_type === undefined) component.sub_type = 'quick_reply';
			if (component.sub_type === 'url' && component.index === undefined) component.index = URL_BUTTON_DEFAULT_INDEX;
			if (Number.isInteger(component.index)) component.index = String(component.index);
		}
		return component;
	});
}
