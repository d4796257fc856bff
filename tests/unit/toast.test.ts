import { describe, expect, test } from 'vitest'
import { getToast, redirectWithToast } from '~/utils/toast.server'

function cookieFrom(response: Response) {
	return response.headers
		.getSetCookie()
		.map((c) => c.split(';')[0])
		.join('; ')
}

describe('flash toasts', () => {
	test('travel with a redirect in the cookie session and are shown once', async () => {
		const response = await redirectWithToast('/dashboard', { type: 'success', key: 'nav.login' })
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toBe('/dashboard')
		const setCookie = response.headers.get('Set-Cookie')!
		expect(setCookie).toMatch(/HttpOnly/i)
		expect(setCookie).toMatch(/SameSite=Lax/i)

		const first = await getToast(new Request('http://localhost/dashboard', { headers: { Cookie: cookieFrom(response) } }))
		expect(first.toast).toMatchObject({ type: 'success', key: 'nav.login' })

		// Reading consumes it: the cookie sent back no longer carries the message.
		const second = await getToast(new Request('http://localhost/dashboard', { headers: { Cookie: cookieFrom(new Response(null, { headers: first.headers! })) } }))
		expect(second.toast).toBeNull()
	})

	test('ignore a tampered cookie', async () => {
		const response = await redirectWithToast('/', { type: 'error', key: 'nav.login' })
		// The signature's first character changed (its last one carries unused bits: changing 'A' to
		// 'B' there left the same signature once in sixteen runs, and the test failed at random).
		const cookie = cookieFrom(response)
		const at = cookie.lastIndexOf('.') + 1
		const forged = cookie.slice(0, at) + (cookie[at] === 'A' ? 'B' : 'A') + cookie.slice(at + 1)
		const { toast } = await getToast(new Request('http://localhost/', { headers: { Cookie: forged } }))
		expect(toast).toBeNull()
	})
})
