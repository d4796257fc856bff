import { describe, expect, test } from 'vitest'
import { safeLink, sanitizeHtml } from '~/utils/sanitize.server'

describe('sanitizeHtml (content pages, HTML ads)', () => {
	test('keeps ordinary text markup', () => {
		const html = '<h2>Title</h2><p><strong>Bold</strong>, <em>em</em></p><ul><li>one</li></ul><blockquote>q</blockquote>'
		expect(sanitizeHtml(html)).toBe(html)
	})

	test('removes scripts, styles, frames, forms and event handlers', () => {
		const dirty =
			'<p onclick="alert(1)" style="color:red">text</p><script>alert(1)</script><style>p{}</style>' +
			'<iframe src="https://evil.example"></iframe><form action="/x"><input name="a"></form><img src="https://cdn.example/a.png" onerror="alert(1)">'
		const clean = sanitizeHtml(dirty)
		expect(clean).toBe('<p>text</p><img src="https://cdn.example/a.png" loading="lazy" />')
		expect(clean).not.toMatch(/script|style|onclick|onerror|iframe|form|alert/)
	})

	test('allows http(s), mailto and relative links, always with rel=noopener', () => {
		expect(sanitizeHtml('<a href="https://example.com">x</a>')).toBe('<a href="https://example.com" rel="noopener noreferrer">x</a>')
		expect(sanitizeHtml('<a href="/workshop-list?service=tyres">x</a>')).toBe(
			'<a href="/workshop-list?service=tyres" rel="noopener noreferrer">x</a>',
		)
		expect(sanitizeHtml('<a href="mailto:info@example.com">x</a>')).toContain('href="mailto:info@example.com"')
		expect(sanitizeHtml('<a href="javascript:alert(1)">x</a>')).toBe('<a rel="noopener noreferrer">x</a>')
		expect(sanitizeHtml('<a href="data:text/html,hi">x</a>')).not.toContain('data:')
		expect(sanitizeHtml('<a href="https://x.example" target="_top">x</a>')).not.toContain('target')
		expect(sanitizeHtml('<a href="https://x.example" target="_blank" rel="opener">x</a>')).toContain('rel="noopener noreferrer"')
	})

	test('allows images from https or this site only', () => {
		expect(sanitizeHtml('<img src="https://cdn.example/a.png" alt="A">')).toContain('src="https://cdn.example/a.png"')
		expect(sanitizeHtml('<img src="/uploads/abc" alt="A">')).toContain('src="/uploads/abc"')
		expect(sanitizeHtml('<img src="http://cdn.example/a.png">')).toBe('')
		expect(sanitizeHtml('<img src="//cdn.example/a.png">')).toBe('')
		expect(sanitizeHtml('<img src="data:image/png;base64,AAAA">')).toBe('')
	})

	test('turns an h1 into an h2 (the page title is the only h1) and copes with nothing', () => {
		expect(sanitizeHtml('<h1>Big</h1>')).toBe('<h2>Big</h2>')
		expect(sanitizeHtml(null)).toBe('')
		expect(sanitizeHtml('')).toBe('')
	})
})

describe('safeLink (ad links)', () => {
	test('keeps http(s) addresses and paths on this site, drops the rest', () => {
		expect(safeLink('https://partner.example/offer')).toBe('https://partner.example/offer')
		expect(safeLink(' /workshop-list?service=tyres ')).toBe('/workshop-list?service=tyres')
		expect(safeLink('//evil.example')).toBeNull()
		expect(safeLink('javascript:alert(1)')).toBeNull()
		expect(safeLink('')).toBeNull()
		expect(safeLink(null)).toBeNull()
	})
})
