import { createCookie, createCookieSessionStorage, isCookie } from 'react-router'
import { describe, expect, test, vi } from 'vitest'
import { rememberedCookie } from '~/caching/remembered-cookie.server'

const signed = () => createCookie('s', { secrets: ['a-secret-for-the-test-0123456789'], path: '/' })

// The signed session and CSRF cookies are verified once per distinct header, not on every request.
describe('rememberedCookie', () => {
	test('a verified header is parsed once, then remembered; the value is the same', async () => {
		const cookie = signed()
		const parse = vi.spyOn(cookie, 'parse')
		const remembered = rememberedCookie(cookie)
		const header = (await remembered.serialize({ token: 'abc' })).split(';')[0]!
		expect(await remembered.parse(header)).toEqual({ token: 'abc' })
		expect(await remembered.parse(header)).toEqual({ token: 'abc' })
		expect(parse).toHaveBeenCalledTimes(1)
		expect(Object.isFrozen(await remembered.parse(header))).toBe(true)
	})

	test('a changed signature or value is checked in full and refused, even after the true one was seen', async () => {
		const remembered = rememberedCookie(signed())
		const header = (await remembered.serialize({ token: 'abc' })).split(';')[0]!
		expect(await remembered.parse(header)).toEqual({ token: 'abc' })
		const [name, value] = header.split('=') as [string, string]
		const [data, signature] = value.split('.') as [string, string]
		const forgedData = Buffer.from(JSON.stringify({ token: 'someone-else' })).toString('base64')
		expect(await remembered.parse(`${name}=${forgedData}.${signature}`)).toBeNull()
		expect(await remembered.parse(`${name}=${data}.${signature.slice(0, -2)}xx`)).toBeNull()
		// Another secret's cookie is not this one's.
		const other = createCookie('s', { secrets: ['another-secret-0123456789abcdef'], path: '/' })
		expect(await remembered.parse((await other.serialize({ token: 'abc' })).split(';')[0]!)).toBeNull()
	})

	test('is a cookie as React Router sees one: a session storage on it signs with its secrets and reads it back', async () => {
		const remembered = rememberedCookie(signed())
		// Were it not, createCookieSessionStorage would take it for options and make an unsigned cookie.
		expect(isCookie(remembered)).toBe(true)
		expect(remembered.name).toBe('s')
		expect(remembered.isSigned).toBe(true)
		expect(await remembered.parse(null)).toBeNull()
		const storage = createCookieSessionStorage({ cookie: remembered })
		const session = await storage.getSession()
		session.set('token', 'abc')
		const header = (await storage.commitSession(session)).split(';')[0]!
		expect(header).toMatch(/^s=[^.]+\.[^.]+$/)
		expect((await storage.getSession(header)).get('token')).toBe('abc')
		expect((await storage.getSession(header.replace(/.$/, '_'))).get('token')).toBeUndefined()
	})
})
