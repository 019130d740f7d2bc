export * from './common.schema';
export * from './identity.schema';
export * from './clients.schema';
export * from './bots.schema';
export * from './media.schema';
export * from './constants';
export * from './settings.schema';
export * from './messages.schema';
