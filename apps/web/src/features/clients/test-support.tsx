// Moved to src/test/ (the one home of the web test helpers); kept so older imports still resolve.
export {
  csvFile,
  makeClient,
  makeSegment,
  mockFetch,
  newQueryClient,
  type RecordedCall,
  renderFeature,
  renderWithQuery,
  SCREEN_TEST_TIMEOUT,
} from '../../test';
