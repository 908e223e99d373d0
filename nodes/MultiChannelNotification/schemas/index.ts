export * from './common';
export { URL_BUTTON_DEFAULT_INDEX } from './componentDefaults';
export * from './components.schema';
export * from './template.schema';
export * from './media.schema';
export * from './sms.schema';
export * from './combined.schema';
