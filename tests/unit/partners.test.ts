import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, test } from 'vitest'
import { isVisitorRequest } from '~/counting/daily-counts.server'
import { contactEvents, listWidgetEvents, profileEvents, searchEvents } from '~/counting/events.server'
import { partnerCaching } from '~/domain/partners/partners.server'
import { PARTNER_LIMITS, partnerOrigin, PartnerSchema, shiftDay } from '~/domain/partners/partners'
import { encodeId } from '~/utils/public-id'

/** The pure parts of partner keys and counting (decision 0154): origins, the form, what each place counts. */

describe('an allowed origin', () => {
	test('is https and a host, written as the browser sends it in Origin', () => {
		expect(partnerOrigin('https://www.example.ee')).toBe('https://www.example.ee')
		expect(partnerOrigin('  https://WWW.Example.EE/  ')).toBe('https://www.example.ee')
		expect(partnerOrigin('https://example.ee:8443')).toBe('https://example.ee:8443')
		// The default port is not part of what the browser sends.
		expect(partnerOrigin('https://example.ee:443')).toBe('https://example.ee')
		// A name in its own letters is sent as punycode.
		expect(partnerOrigin('https://autoõpe.ee')).toBe('https://xn--autope-sxa.ee')
	})

	test('plain http only on the machine itself', () => {
		expect(partnerOrigin('http://localhost:8080')).toBe('http://localhost:8080')
		expect(partnerOrigin('http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000')
		expect(partnerOrigin('http://[::1]:3000')).toBe('http://[::1]:3000')
		expect(partnerOrigin('http://shop.localhost')).toBe('http://shop.localhost')
		expect(partnerOrigin('http://example.ee')).toBeNull()
		expect(partnerOrigin('http://localhost.example.ee')).toBeNull()
		expect(partnerOrigin('http://127.0.0.2')).toBeNull()
	})

	test('is no path, query, fragment, credentials, other scheme or wildcard', () => {
		for (const text of ['https://example.ee/shop', 'https://example.ee/?a=1', 'https://example.ee?', 'https://example.ee#top', 'https://user:pw@example.ee', 'ftp://example.ee', 'example.ee', '*.example.ee', 'https://*.example.ee', 'null', ''])
			expect(partnerOrigin(text), text).toBeNull()
	})
})

function parse(values: Record<string, string>) {
	const form = new FormData()
	for (const [key, value] of Object.entries(values)) form.set(key, value)
	return parseWithZod(form, { schema: PartnerSchema })
}

describe('the partner form', () => {
	test('reads one origin a line, without repeats or blank lines', () => {
		const submission = parse({ name: ' Autoklubi ', origins: 'https://autoklubi.example\r\n\r\nhttps://www.autoklubi.example/\nhttps://autoklubi.example', rateLimitPerMinute: '600' })
		expect(submission.status).toBe('success')
		expect(submission.status === 'success' && submission.value).toEqual({
			name: 'Autoklubi',
			origins: ['https://autoklubi.example', 'https://www.autoklubi.example'],
			rateLimitPerMinute: 600,
		})
	})

	test('names the first line that is no origin, next to the field, as a translation key with its line', () => {
		const submission = parse({ name: 'A', origins: 'https://ok.example\nhttp://shop.example\nnope', rateLimitPerMinute: '60' })
		expect(submission.reply().error?.origins).toEqual(['admin:partners.originInvalid|{"origin":"http://shop.example"}'])
	})

	test('wants a name, at least one origin and at most the limit, and calls a minute within bounds', () => {
		const errors = parse({ name: '', origins: '\n \n', rateLimitPerMinute: '5' }).reply().error
		expect(errors?.name).toEqual(['validation.required'])
		expect(errors?.origins).toEqual(['admin:partners.originsRequired'])
		const range = `admin:partners.limitRange|${JSON.stringify({ min: PARTNER_LIMITS.minPerMinute, max: PARTNER_LIMITS.maxPerMinute })}`
		expect(errors?.rateLimitPerMinute).toEqual([range])
		for (const value of ['', 'many', '60.5', String(PARTNER_LIMITS.maxPerMinute + 1)]) {
			expect(parse({ name: 'A', origins: 'https://a.example', rateLimitPerMinute: value }).reply().error?.rateLimitPerMinute, value).toEqual([range])
		}
		const many = Array.from({ length: PARTNER_LIMITS.maxOrigins + 1 }, (_, i) => `https://s${i}.example`).join('\n')
		expect(parse({ name: 'A', origins: many, rateLimitPerMinute: '60' }).reply().error?.origins).toEqual([`admin:partners.tooManyOrigins|{"max":${PARTNER_LIMITS.maxOrigins}}`])
	})
})

describe('what is counted', () => {
	const [a, b, c] = ['3be60a4e-83e3-4106-8642-a137a2f58624', 'aefa79bd-78ba-4f43-a1e9-e4fbecb359c9', '0d4bd7b6-2e52-4b0a-9a57-1d2c3b4a5f60']
	const partner = { id: 'c4a1f9a2-1111-4a2b-8c3d-123456789abc' }

	test('a page of results: each workshop shown once, and a search for a partner', () => {
		expect(searchEvents([encodeId(a), encodeId(b), encodeId(a), 'not-an-id'])).toEqual([
			{ kind: 'search-appearance', workshopId: a, partnerId: null },
			{ kind: 'search-appearance', workshopId: b, partnerId: null },
		])
		expect(searchEvents([encodeId(c)], partner)).toEqual([
			{ kind: 'search-appearance', workshopId: c, partnerId: partner.id },
			{ kind: 'search', partnerId: partner.id },
		])
		// An empty page is still a search made through the partner's site.
		expect(searchEvents([], partner)).toEqual([{ kind: 'search', partnerId: partner.id }])
	})

	test("a workshop's page: on the portal, in a widget (with its partner, one widget shown), only its first page of reviews", () => {
		expect(profileEvents('portal', a, 1)).toEqual([{ kind: 'profile-view', workshopId: a }])
		expect(profileEvents('portal', a, 2)).toEqual([])
		expect(profileEvents('widget', a, 1)).toEqual([{ kind: 'widget-profile-view', workshopId: a, partnerId: null }])
		expect(profileEvents('widget', a, 1, partner)).toEqual([
			{ kind: 'widget-profile-view', workshopId: a, partnerId: partner.id },
			{ kind: 'widget-view', partnerId: partner.id },
		])
		expect(profileEvents('widget', a, 3, partner)).toEqual([])
	})

	test('a list widget started and a contact message count only for a partner', () => {
		expect(listWidgetEvents(null)).toEqual([])
		expect(listWidgetEvents(partner)).toEqual([{ kind: 'widget-view', partnerId: partner.id }])
		expect(contactEvents(undefined)).toEqual([])
		expect(contactEvents(partner)).toEqual([{ kind: 'contact-message', partnerId: partner.id }])
	})

	test("only a visitor's request counts: no bot, no HEAD, no prefetch", () => {
		const browser = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
		const request = (init: RequestInit = {}, userAgent = browser) => new Request('http://localhost/workshop-list', { ...init, headers: { 'User-Agent': userAgent, ...(init.headers as Record<string, string>) } })
		expect(isVisitorRequest(request())).toBe(true)
		// No User-Agent at all: a script's call, counted (isbot needs a name to judge).
		expect(isVisitorRequest(new Request('http://localhost/'))).toBe(true)
		expect(isVisitorRequest(request({}, 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'))).toBe(false)
		expect(isVisitorRequest(request({}, 'facebookexternalhit/1.1'))).toBe(false)
		expect(isVisitorRequest(request({ method: 'HEAD' }))).toBe(false)
		expect(isVisitorRequest(request({ headers: { 'Sec-Purpose': 'prefetch;prerender' } }))).toBe(false)
		expect(isVisitorRequest(request({ headers: { Purpose: 'prefetch' } }))).toBe(false)
	})
})

describe('the caching of a call that takes a key', () => {
	const partner = { id: 'x', name: 'X', rateLimitPerMinute: 60 }
	test('without a key: as before, varying with the key header too', () => {
		expect(partnerCaching(null, { 'Cache-Control': 'public, max-age=30' })).toEqual({ 'Cache-Control': 'public, max-age=30', Vary: 'X-Partner-Key' })
		expect(partnerCaching(null, { 'Cache-Control': 'private, max-age=30', Vary: 'Accept-Language, Cookie' })).toEqual({
			'Cache-Control': 'private, max-age=30',
			Vary: 'Accept-Language, Cookie, X-Partner-Key',
		})
	})
	test('with a key: no shared cache keeps it, the browser asks again each time', () => {
		expect(partnerCaching(partner, { 'Cache-Control': 'public, max-age=30' })).toEqual({ 'Cache-Control': 'private, no-cache', Vary: 'X-Partner-Key' })
	})
})

test('days move across months and years', () => {
	expect(shiftDay('2026-03-01', -1)).toBe('2026-02-28')
	expect(shiftDay('2026-12-31', 1)).toBe('2027-01-01')
	expect(shiftDay('2026-03-29', -29)).toBe('2026-02-28')
})
