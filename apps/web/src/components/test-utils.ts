// Moved to src/test/ (the one home of the web test helpers); kept so older imports still resolve.
export { expectNoSeriousA11yViolations } from '../test/a11y';
