import { configureOutbound } from '../src/integrations/http/outbound';
import { parseAllowList } from '../src/integrations/http/address-policy';

// Every test file's fakes (packages/fakes) listen on 127.0.0.1 over http: the tests allow them as
// OUTBOUND_ALLOW_PRIVATE=127.0.0.1,::1 does in the demo, with plain http as in development. Any other
// private address stays refused. Tests of the policy itself configure their own.
configureOutbound({ httpsOnly: false, allowPrivate: parseAllowList('127.0.0.1,::1') });
