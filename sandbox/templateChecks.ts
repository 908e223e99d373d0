/**
 * The checks of a chat template message (spec, template message object): its name and language,
 * and its components (one body, at most one header with an https image, quick reply and url
 * buttons at distinct positions).
 */
import type { JsonObject } from './fieldChecks';
import { checkHttpsUrl, checkLiteral, checkNonEmptyString, checkShape, checkSingleParameter, isJsonObject, kindOf } from './fieldChecks';

/** Spec, limits: at most 3 quick reply buttons, index values 0 to 2. */
const QUICK_REPLY_INDEXES: readonly string[] = ['0', '1', '2'];
const MAX_QUICK_REPLIES = 3;
const DIGITS = /^\d+$/;

function checkHeader(component: JsonObject, path: string): string | null {
	const shape = checkShape(component, path, ['type', 'parameters']);
	if (shape) return shape;
	const single = checkSingleParameter(component.parameters, `${path}.parameters`);
	if ('error' in single) return single.error;
	const pPath = `${path}.parameters[0]`;
	const pShape = checkShape(single.parameter, pPath, ['type', 'image']);
	if (pShape) return pShape;
	const parameter = single.parameter as JsonObject;
	const typeError = checkLiteral(parameter.type, `${pPath}.type`, 'image');
	if (typeError) return typeError;
	const imageShape = checkShape(parameter.image, `${pPath}.image`, ['link']);
	if (imageShape) return imageShape;
	return checkHttpsUrl((parameter.image as JsonObject).link, `${pPath}.image.link`);
}

function checkBody(component: JsonObject, path: string): string | null {
	const shape = checkShape(component, path, ['type', 'parameters']);
	if (shape) return shape;
	const parameters = component.parameters;
	const listPath = `${path}.parameters`;
	// An empty list is allowed: a template whose content has no placeholders needs no values.
	if (!Array.isArray(parameters)) return `${listPath}: must be an array (got ${kindOf(parameters)})`;
	for (let i = 0; i < parameters.length; i++) {
		const pPath = `${listPath}[${i}]`;
		const pShape = checkShape(parameters[i], pPath, ['type', 'text']);
		if (pShape) return pShape;
		const parameter = parameters[i] as JsonObject;
		const typeError = checkLiteral(parameter.type, `${pPath}.type`, 'text');
		if (typeError) return typeError;
		const textError = checkNonEmptyString(parameter.text, `${pPath}.text`);
		if (textError) return textError;
	}
	return null;
}

function checkButton(component: JsonObject, path: string): string | null {
	const shape = checkShape(component, path, ['type', 'sub_type', 'index', 'parameters']);
	if (shape) return shape;
	const subType = component.sub_type;
	if (subType !== 'quick_reply' && subType !== 'url') {
		return `${path}.sub_type: must be "quick_reply" or "url"`;
	}
	const index = component.index;
	// The spec calls the index a "string position"; a number here is the classic client slip.
	if (typeof index !== 'string') return `${path}.index: must be a string (got ${kindOf(index)})`;
	if (subType === 'quick_reply' && !QUICK_REPLY_INDEXES.includes(index)) {
		return `${path}.index: a quick reply button index must be "0", "1" or "2" (got "${index}")`;
	}
	if (subType === 'url' && !DIGITS.test(index)) {
		return `${path}.index: a url button index must be a string of digits (got "${index}")`;
	}
	const single = checkSingleParameter(component.parameters, `${path}.parameters`);
	if ('error' in single) return single.error;
	const pPath = `${path}.parameters[0]`;
	const valueKey = subType === 'quick_reply' ? 'payload' : 'text';
	const pShape = checkShape(single.parameter, pPath, ['type', valueKey]);
	if (pShape) return pShape;
	const parameter = single.parameter as JsonObject;
	const typeError = checkLiteral(parameter.type, `${pPath}.type`, valueKey);
	if (typeError) return typeError;
	return checkNonEmptyString(parameter[valueKey], `${pPath}.${valueKey}`);
}

/** What the buttons so far take up: quick reply slots, and positions. */
interface ButtonsSeen {
	quickReplies: number;
	/** Button index → where in the components the button that has it is. */
	indexes: Map<string, number>;
}

/** Checks a valid button against the ones before it: at most 3 quick replies, each index used once. */
function checkButtonPlace(component: JsonObject, position: number, path: string, seen: ButtonsSeen): string | null {
	const cPath = `${path}[${position}]`;
	if (component.sub_type === 'quick_reply') {
		seen.quickReplies++;
		if (seen.quickReplies > MAX_QUICK_REPLIES) {
			return `${cPath}: at most ${MAX_QUICK_REPLIES} quick reply buttons are allowed (this is number ${seen.quickReplies})`;
		}
	}
	// Two buttons at the same position cannot both fill the template.
	const index = component.index as string;
	const first = seen.indexes.get(index);
	if (first !== undefined) {
		return `${cPath}.index: "${index}" is already used by ${path}[${first}]; button indexes must be distinct`;
	}
	seen.indexes.set(index, position);
	return null;
}

function checkComponents(value: unknown, path: string): string | null {
	if (!Array.isArray(value)) return `${path}: must be an array of component objects (got ${kindOf(value)})`;
	let headers = 0;
	let bodies = 0;
	const buttons: ButtonsSeen = { quickReplies: 0, indexes: new Map() };
	for (let i = 0; i < value.length; i++) {
		const cPath = `${path}[${i}]`;
		const component: unknown = value[i];
		if (!isJsonObject(component)) return `${cPath}: must be an object (got ${kindOf(component)})`;
		if (!('type' in component)) return `${cPath}.type: is required`;
		let error: string | null;
		switch (component.type) {
			case 'header':
				headers++;
				if (headers > 1) return `${cPath}: at most one header component is allowed`;
				error = checkHeader(component, cPath);
				break;
			case 'body':
				bodies++;
				if (bodies > 1) return `${cPath}: exactly one body component is allowed (this is a second one)`;
				error = checkBody(component, cPath);
				break;
			case 'button':
				error = checkButton(component, cPath) ?? checkButtonPlace(component, i, path, buttons);
				break;
			default:
				return `${cPath}.type: must be "header", "body" or "button"`;
		}
		if (error) return error;
	}
	// Spec, template message object, rule 1: the body component is required.
	if (bodies === 0) return `${path}: the body component is required`;
	return null;
}

export function checkTemplate(value: unknown, path: string): string | null {
	const shape = checkShape(value, path, ['name', 'language', 'components']);
	if (shape) return shape;
	const template = value as JsonObject;
	const nameError = checkNonEmptyString(template.name, `${path}.name`);
	if (nameError) return nameError;
	const languagePath = `${path}.language`;
	const languageShape = checkShape(template.language, languagePath, ['policy', 'code']);
	if (languageShape) return languageShape;
	const language = template.language as JsonObject;
	const policyError = checkNonEmptyString(language.policy, `${languagePath}.policy`);
	if (policyError) return policyError;
	const codeError = checkNonEmptyString(language.code, `${languagePath}.code`);
	if (codeError) return codeError;
	return checkComponents(template.components, `${path}.components`);
}
