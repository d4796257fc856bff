/**
 * What React Router hands a loader or an action beside `request`, `params` and `context`, for tests
 * that call one directly: the routes read the request's own URL, never these.
 */
export const ROUTER_ARGS = { url: new URL('http://localhost/'), pattern: '' }
