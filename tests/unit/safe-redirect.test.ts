import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { safeRedirect, wayBack, withRedirectTo } from '~/utils/safe-redirect'

const SITE = 'https://autohub.example'

/** Where a browser would go after `Location: <value>` from a page of this site (it drops tabs and newlines). */
const landsOn = (value: string) => new URL(value.replace(/[\t\n\r]/g, ''), `${SITE}/add-vehicle`).origin

describe('safeRedirect', () => {
	test('keeps paths on this site, with their query and fragment', () => {
		expect(safeRedirect('/new-service-register', '/x')).toBe('/new-service-register')
		expect(safeRedirect('/workshop-list?city=tallinn&page=2#top', '/x')).toBe('/workshop-list?city=tallinn&page=2#top')
		expect(safeRedirect('/ülevaade', '/x')).toBe('/%C3%BClevaade')
	})

	test.each([
		['another site', 'https://evil.example/'],
		['protocol-relative', '//evil.example/'],
		['backslash', '/\\evil.example/'],
		['backslash later', '/a\\..\\/evil.example'],
		['a tab after the slash', '/\t/evil.example/'],
		['a newline', '/\n/evil.example'],
		['a carriage return (a header injection)', '/x\r\nSet-Cookie: a=b'],
		['a NUL', '/x\u0000'],
		['percent-encoded tab', '/%09/evil.example/'],
		['percent-encoded backslash', '/%5Cevil.example'],
		['javascript:', 'javascript:alert(1)'],
		['a relative path', 'evil.example'],
		['dot segments', '/../../evil'],
		['a dot segment that normalises to protocol-relative', '/.//evil.example/'],
		['an encoded one', '/%2e//evil.example'],
		['a longer one', '/a/..//evil.example'],
		['empty', ''],
		['not a string', ['/a']],
		['undefined', undefined],
	])('refuses %s', (_name, value) => {
		expect(safeRedirect(value, '/my-vehicle')).toBe('/my-vehicle')
	})

	test('whatever it is given, a browser stays on this site', () => {
		const interesting = fc.oneof(
			fc.string(),
			fc.string({ unit: fc.constantFrom('/', '\\', '\t', '\n', '\r', '.', ':', '%', '0', '9', 'e', '@', '?', '#', ' ', 'h', 't', 'p', 's', '%2e', '%2f', '%5c') }),
		)
		fc.assert(
			fc.property(interesting, (value) => {
				const result = safeRedirect(value, '/fallback')
				expect(result.startsWith('/')).toBe(true)
				// eslint-disable-next-line no-control-regex -- control characters are what must not be there
				expect(result).not.toMatch(/[\u0000-\u001f\u007f\\]/)
				expect(landsOn(result)).toBe(SITE)
				// What the browser gets back must itself be a plain path on this site.
				expect(result.startsWith('//')).toBe(false)
				expect(landsOn(new URL(result, SITE).pathname)).toBe(SITE)
			}),
			{ numRuns: 2000 },
		)
	})
})

describe('wayBack', () => {
	test('a path on this site, or null for anything else or nothing', () => {
		expect(wayBack('/new-service-register?workshop=abc')).toBe('/new-service-register?workshop=abc')
		expect(wayBack('//evil.example/')).toBeNull()
		expect(wayBack(null)).toBeNull()
	})
})

describe('withRedirectTo', () => {
	test('adds the way back to a path, keeping its own query, and nothing when there is none', () => {
		expect(withRedirectTo('/login', '/new-service-register')).toBe('/login?redirectTo=%2Fnew-service-register')
		expect(withRedirectTo('/register?role=customer', '/my-vehicle?x=1')).toBe('/register?role=customer&redirectTo=%2Fmy-vehicle%3Fx%3D1')
		expect(withRedirectTo('/login', null)).toBe('/login')
	})
})
