export * from './common';
export * from './components.schema';
export * from './template.schema';
export * from './media.schema';
export * from './sms.schema';
export * from './combined.schema';
