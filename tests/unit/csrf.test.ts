import { describe, expect, test } from 'vitest'
import { commitCsrfToken, validateCsrf } from '~/utils/csrf.server'

describe('CSRF protection', () => {
	test('accepts a form that carries the token of its cookie', async () => {
		const [token, cookie] = await commitCsrfToken(new Request('http://localhost/'))
		const form = new FormData()
		form.set('csrf', token)
		const request = new Request('http://localhost/contact-us', { method: 'POST', headers: { Cookie: cookie!.split(';')[0]! } })
		await expect(validateCsrf(request, form)).resolves.toBeUndefined()
	})

	test('refuses a form without the token with 403, in the reader’s language', async () => {
		const [, cookie] = await commitCsrfToken(new Request('http://localhost/'))
		const request = new Request('http://localhost/contact-us?lng=en', { method: 'POST', headers: { Cookie: cookie!.split(';')[0]! } })
		const error = await validateCsrf(request, new FormData()).catch((e: unknown) => e)
		expect(error).toBeInstanceOf(Response)
		expect((error as Response).status).toBe(403)
		expect(await (error as Response).text()).toBe('The form has expired. Please reload the page and try again.')
	})

	test('refuses a token from another visitor', async () => {
		const [mine] = await commitCsrfToken(new Request('http://localhost/'))
		const [, theirCookie] = await commitCsrfToken(new Request('http://localhost/'))
		const form = new FormData()
		form.set('csrf', mine)
		const request = new Request('http://localhost/', { method: 'POST', headers: { Cookie: theirCookie!.split(';')[0]! } })
		await expect(validateCsrf(request, form)).rejects.toBeInstanceOf(Response)
	})
})
