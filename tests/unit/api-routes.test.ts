import { type ServerBuild } from '@remix-run/node'
import { expect, test } from 'vitest'
import { apiRoutesOf } from '../../server/api-routes'

const action = async () => new Response('ok')
const loader = async () => new Response('ok')
const route = (id: string, path: string | undefined, module: Record<string, unknown>, parentId = 'root') => [id, { id, path, parentId, module }] as const

test('the JSON API’s fixed paths are called directly; parameters, pages and other paths go through Remix', () => {
	const build = {
		routes: Object.fromEntries([
			['root', { id: 'root', path: '', module: { default: () => null } }],
			route('routes/admin.api.get-notification', 'admin/api/get-notification', { action, loader }),
			route('routes/admin.api.workshop-list', 'admin/api/workshop-list', { loader }),
			route('routes/admin.api.workshop-details.$id', 'admin/api/workshop-details/:id', { loader }),
			route('routes/_app', undefined, { default: () => null }),
			route('routes/_app.dashboard', 'dashboard', { loader, default: () => null }, 'routes/_app'),
			route('routes/admin.users', 'admin/users', { loader, default: () => null }),
			route('routes/uploads.$id', 'uploads/:id', { loader }),
		]),
	} as unknown as ServerBuild
	const routes = apiRoutesOf(build)
	expect([...routes.keys()].sort()).toEqual(['/admin/api/get-notification', '/admin/api/workshop-list'])
	expect(routes.get('/admin/api/get-notification')).toEqual({ action, loader })
	expect(routes.get('/admin/api/workshop-list')?.action).toBeUndefined()
})

test('the real build’s API routes are found, the poll among them', async () => {
	const build = (await import(/* @vite-ignore */ `${process.cwd()}/build/server/index.js`)) as ServerBuild
	const routes = apiRoutesOf(build)
	expect(routes.get('/admin/api/get-notification')?.action).toBeTypeOf('function')
	expect(routes.has('/admin/api/workshop-details/:id')).toBe(false)
	expect(routes.size).toBeGreaterThan(8)
})
