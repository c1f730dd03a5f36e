// Types for the undici files src/api/undici.ts loads one by one (undici's own typings describe
// only its index).
declare module 'undici/lib/dispatcher/env-http-proxy-agent.js' {
  import type { EnvHttpProxyAgent } from 'undici';
  const Agent: typeof EnvHttpProxyAgent;
  export default Agent;
}
declare module 'undici/lib/dispatcher/dispatcher.js' {
  import type { Dispatcher as UndiciDispatcher } from 'undici';
  const Dispatcher: typeof UndiciDispatcher;
  type Dispatcher = UndiciDispatcher;
  export default Dispatcher;
}
declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  const request: Dispatcher['request'];
  export default request;
}
declare module 'undici/lib/api/api-connect.js' {
  import type { Dispatcher } from 'undici';
  const connect: Dispatcher['connect'];
  export default connect;
}
