import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { DomainError, FieldError, notFound } from '~/utils/errors'
import { methodNotAllowed } from '~/utils/failures.server'
import { routeMeta } from '~/utils/meta'
import { domainErrorReply, handleDomainError } from '~/utils/route-helpers.server'
import { getToast } from '~/utils/toast.server'

const Schema = z.object({ email: z.string(), name: z.string() })

function submission() {
	const formData = new FormData()
	formData.set('email', 'a@example.com')
	formData.set('name', 'Ann')
	return parseWithZod(formData, { schema: Schema })
}

const rateLimited = () => new DomainError('common:validation.tooManyAttempts', 429, { minutes: 3 })

describe('handleDomainError', () => {
	test('throws anything that is not a refusal of the domain', () => {
		const bug = new Error('bug')
		expect(() => handleDomainError(bug, { as: 'form', submission: submission() })).toThrow(bug)
		const response = new Response('Not found', { status: 404 })
		expect(() => handleDomainError(response, { as: 'json', language: 'en' })).toThrow(Response)
	})

	test('form: the text above the form, with the status and the data that travels along', () => {
		const answer = handleDomainError(new DomainError('workshop:offer.alreadyMade', 409), { as: 'form', submission: submission(), data: { intent: 'make' } })
		expect(answer.init).toMatchObject({ status: 409 })
		expect(answer.data.intent).toBe('make')
		expect(answer.data.result.error).toEqual({ '': ['workshop:offer.alreadyMade'] })
	})

	test('form: a FieldError next to its field, or next to the field the route names', () => {
		const own = handleDomainError(new FieldError('email', 'auth:register.emailTaken', 409), { as: 'form', submission: submission() })
		expect(own.init).toMatchObject({ status: 409 })
		expect(own.data.result.error).toEqual({ email: ['auth:register.emailTaken'] })
		const named = handleDomainError(new DomainError('admin:validation.codeTaken', 409), { as: 'form', submission: submission(), field: 'name' })
		expect(named.data.result.error).toEqual({ name: ['admin:validation.codeTaken'] })
	})

	test('form: parameters travel with the key, and a rate limit says when to come back', () => {
		const answer = handleDomainError(rateLimited(), { as: 'form', submission: submission() })
		expect(answer.data.result.error).toEqual({ '': ['common:validation.tooManyAttempts|{"minutes":3}'] })
		expect(new Headers(answer.init?.headers).get('Retry-After')).toBe('180')
	})

	test('data: the text goes where the route puts it', () => {
		const answer = handleDomainError(new DomainError('admin:users.cannotBlockSelf', 409), { as: 'data', data: (text) => ({ intent: 'block', error: text }) })
		expect(answer.init).toMatchObject({ status: 409 })
		expect(answer.data).toEqual({ intent: 'block', error: 'admin:users.cannotBlockSelf' })
	})

	test('toast: back to the page with an error toast', async () => {
		const request = new Request('http://localhost/request-details/x', { method: 'POST' })
		const response = await handleDomainError(new DomainError('customer:request.cannotCancel', 409), { as: 'toast', redirectTo: '/request-details/x', request })
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toBe('/request-details/x')
		const cookie = response.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
		const { toast } = await getToast(new Request('http://localhost/request-details/x', { headers: { Cookie: cookie } }))
		expect(toast).toMatchObject({ type: 'error', key: 'customer:request.cannotCancel' })
	})

	test('json: { status, message } in the caller’s language', async () => {
		const missing = handleDomainError(notFound(), { as: 'json', language: 'en' })
		expect(missing.status).toBe(404)
		expect(await missing.json()).toEqual({ status: 404, message: 'Page not found' })
		const limited = handleDomainError(rateLimited(), { as: 'json', language: 'en' })
		expect(limited.status).toBe(429)
		expect(limited.headers.get('Retry-After')).toBe('180')
		expect(await limited.json()).toEqual({ status: 429, message: 'Too many attempts. Please try again in 3 minutes.' })
	})
})

describe('domainErrorReply', () => {
	test('puts the message above the form unless a field is named', () => {
		expect(domainErrorReply(new DomainError('x:y', 409))).toEqual({ formErrors: ['x:y'] })
		expect(domainErrorReply(new FieldError('email', 'x:y'))).toEqual({ fieldErrors: { email: ['x:y'] } })
		expect(domainErrorReply(new DomainError('x:y', 409), 'code')).toEqual({ fieldErrors: { code: ['x:y'] } })
	})
})

describe('methodNotAllowed', () => {
	test('the JSON API: { status, message } with CORS, and Allow with OPTIONS', async () => {
		const response = await methodNotAllowed(new Request('http://localhost/admin/api/login?lng=en', { method: 'PUT' }), 'POST')
		expect(response.status).toBe(405)
		expect(response.headers.get('Allow')).toBe('POST, OPTIONS')
		expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*')
		expect(await response.json()).toEqual({ status: 405, message: 'This method is not allowed here.' })
	})

	test('any other route: the text, and Allow naming the methods it takes', async () => {
		const response = await methodNotAllowed(new Request('http://localhost/sitemap.xml?lng=en', { method: 'POST' }), ['GET'])
		expect(response.status).toBe(405)
		expect(response.headers.get('Allow')).toBe('GET')
		expect(await response.text()).toBe('This method is not supported.')
		const logout = await methodNotAllowed(new Request('http://localhost/logout', { method: 'DELETE' }), ['GET', 'POST'])
		expect(logout.headers.get('Allow')).toBe('GET, POST')
	})
})

describe('routeMeta', () => {
	test('the page’s meta with the site’s name, then the extra tags', () => {
		const meta = routeMeta<() => Promise<{ meta: { title: string; noindex: boolean } }>>([{ name: 'robots', content: 'noindex' }])
		const args = { data: { meta: { title: 'Offers', noindex: true } }, matches: [{ id: 'root', data: { site: { appname: 'Autohub' } } }] } as unknown as Parameters<typeof meta>[0]
		const tags = meta(args)!
		expect(tags[0]).toEqual({ title: 'Offers · Autohub' })
		expect(tags).toContainEqual({ name: 'robots', content: 'noindex, follow' })
		expect(tags.at(-1)).toEqual({ name: 'robots', content: 'noindex' })
	})

	test('a failed loader still gives the site’s name as the title', () => {
		const meta = routeMeta<() => Promise<{ meta: { title: string } }>>()
		expect(meta({ data: undefined, matches: [] } as unknown as Parameters<typeof meta>[0])).toEqual([{ title: 'Autohub' }])
	})
})
