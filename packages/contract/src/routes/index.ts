export * from './route';
export * from './paths';
