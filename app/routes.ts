import { type RouteConfig } from '@react-router/dev/routes'
import { flatRoutes } from '@react-router/fs-routes'

// The file names in app/routes are the routes (the flat-routes convention); tests and server-only
// modules beside them are not.
export default flatRoutes({ ignoredRouteFiles: ['**/*.test.{ts,tsx}', '**/*.server.ts'] }) satisfies RouteConfig
