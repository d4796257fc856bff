import { createStaticHandler, matchPath, matchRoutes } from '@remix-run/router'
import { createStaticRouter } from 'react-router-dom/server'
import { describe, expect, test } from 'vitest'

/**
 * patches/@remix-run+router (docs/decisions/0092): Remix matches every request against the route
 * tree four times, and the router flattened, ranked and compiled the whole tree each time. The
 * patch keeps the ranked branches per routes array and each compiled path; the answers must be
 * the ones the router gave before.
 */
const tree = () => [
	{ id: 'root', path: '', children: [
		{ id: 'home', index: true },
		{ id: 'workshop', path: 'workshop-details/:id' },
		{ id: 'dashboard', path: 'dashboard' },
		{ id: 'optional', path: 'files/:name?' },
		{ id: 'splat', path: '*' },
	] },
]

describe('route matching with the patched router', () => {
	test('matches as before: params, index, optional segments, the splat and ranking', () => {
		const routes = tree()
		const ids = (path: string) => matchRoutes(routes, path)?.map((match) => match.route.id)
		expect(ids('/')).toEqual(['root', 'home'])
		expect(ids('/dashboard')).toEqual(['root', 'dashboard'])
		expect(matchRoutes(routes, '/workshop-details/abc')?.[1]?.params).toEqual({ id: 'abc' })
		expect(matchRoutes(routes, '/files')?.[1]?.params).toEqual({ name: undefined })
		expect(matchRoutes(routes, '/nowhere/else')?.[1]?.params).toEqual({ '*': 'nowhere/else' })
		expect(matchPath('/a/:b', '/a/x')?.params).toEqual({ b: 'x' })
		expect(matchPath({ path: '/A', caseSensitive: true }, '/a')).toBeNull()
		expect(matchPath({ path: '/A', caseSensitive: false }, '/a')).not.toBeNull()
	})

	test('a routes array is ranked once: a route added to the same array later is not seen, a new array is', () => {
		const routes = tree()
		expect(matchRoutes(routes, '/late')?.[1]?.route.id).toBe('splat')
		routes[0]!.children.unshift({ id: 'late', path: 'late' })
		// Kept: Remix's route arrays never change once built, so the first ranking stands.
		expect(matchRoutes(routes, '/late')?.[1]?.route.id).toBe('splat')
		expect(matchRoutes([...routes], '/late')?.[1]?.route.id).toBe('late')
	})
})

/**
 * patches/react-router-dom (docs/decisions/0092): Remix hands createStaticRouter the same routes
 * array on every request (its RemixServer, patched too, makes them once per build), and the router
 * converts them once. Each request's own matches and data are still its own.
 */
test('the static router converts a routes array once, and each request keeps its own matches', async () => {
	const routes = tree()
	const handler = createStaticHandler(routes)
	const contextOf = async (path: string) => {
		const context = await handler.query(new Request(`http://localhost${path}`))
		if (context instanceof Response) throw new Error('not a context')
		return context
	}
	const [first, second] = [await contextOf('/dashboard'), await contextOf('/workshop-details/abc')]
	const one = createStaticRouter(routes, first)
	const two = createStaticRouter(routes, second)
	expect(two.routes).toBe(one.routes)
	expect(one.state.matches.map((match) => match.route.id)).toEqual(['root', 'dashboard'])
	expect(two.state.matches.map((match) => match.route.id)).toEqual(['root', 'workshop'])
	expect(two.state.matches[1]?.params).toEqual({ id: 'abc' })
	// The matches point at the converted routes, as the router's own code expects.
	expect(two.state.matches[1]?.route).toBe(two.routes[0]!.children![1])
	expect(createStaticRouter([...routes], first).routes).not.toBe(one.routes)
})
