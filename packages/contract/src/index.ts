export * from './common.schema';
export * from './identity.schema';
