import { type ServerBuild } from '@remix-run/node'

type Handler = (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => Promise<unknown> | unknown
export type ApiRoute = { loader?: Handler; action?: Handler }

/**
 * The JSON API's routes with a fixed path (`/admin/api/get-notification`, not `…/workshop-details/:id`),
 * by path, from the build's own route table (docs/decisions/0089). The server calls their loader
 * or action directly: the same functions, with the same arguments, that Remix would call for a
 * resource route. Remix's router ranks every route of the portal on each request, twice; for the
 * bell's poll that was a quarter of the process's time. Routes with parameters, and anything
 * else, still go through Remix.
 */
export function apiRoutesOf(build: ServerBuild): Map<string, ApiRoute> {
	const fullPath = (id: string | undefined): string => {
		if (!id) return ''
		const route = build.routes[id]
		if (!route) return ''
		const parent = fullPath(route.parentId)
		return route.path ? `${parent}/${route.path}`.replace(/\/+/g, '/') : parent
	}
	const found = new Map<string, ApiRoute>()
	for (const [id, route] of Object.entries(build.routes)) {
		const path = fullPath(id)
		const module = route.module as unknown as { default?: unknown; loader?: Handler; action?: Handler }
		// Resource routes only (no component), under the API, with no parameter or splat.
		if (!path.startsWith('/admin/api/') || /[:*]/.test(path) || module.default) continue
		found.set(path.toLowerCase(), { loader: module.loader, action: module.action })
	}
	return found
}
