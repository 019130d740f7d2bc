export * from './common.schema';
export * from './identity.schema';
export * from './clients.schema';
export * from './media.schema';
export * from './constants';
