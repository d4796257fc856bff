import { createHash } from 'node:crypto'
import { and, eq, isNull, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import * as t from '~/db/schema'
import { countEvents, flushDailyCounts } from '~/counting/daily-counts.server'
import { type CountKind } from '~/counting/kinds'
import { demoPartners } from '~/db/seed/demo-partners.server'
import { issuePartnerKey, listPartners, revokePartner, updatePartner } from '~/domain/partners/partner-admin.server'
import { partnerFigures } from '~/domain/partners/partner-figures.server'
import { partnerOf } from '~/domain/partners/partners.server'
import { PARTNER_FIGURE_DAYS, shiftDay } from '~/domain/partners/partners'
import { action as contactUs } from '~/routes/admin.api.contact-us'
import { loader as workshopDetails } from '~/routes/admin.api.workshop-details.$id'
import { loader as workshopFilters } from '~/routes/admin.api.workshop-filters'
import { loader as workshopList } from '~/routes/admin.api.workshop-list'
import { action as partnersAction, loader as partnersLoader } from '~/routes/_app.admin.partners._index'
import { action as partnerAction, loader as partnerLoader } from '~/routes/_app.admin.partners.$id'
import { loader as portalList } from '~/routes/_public.workshop-list'
import { loader as portalWorkshop } from '~/routes/_public.workshop-details.$id'
import { db, queryRows } from '~/db/db.server'
import { commitCsrfToken } from '~/utils/csrf.server'
import { decodeId, encodeId } from '~/utils/public-id'
import { tallinnDay } from '~/utils/time'
import { adminRequest, again, createAdmin, createCustomer, signedInRequest } from '#tests/support/accounts'
import { demoData } from '#tests/support/demo-data'
import { ROUTER_ARGS } from '#tests/support/router-args'

/**
 * Partner keys and the daily counts (issue 37, decision 0154), through the real routes: a key is
 * shown once and stored as its hash; a keyed call is checked (origin, revocation, the partner's
 * limit) and attributed; the counts reach `daily_counts` at the flush, bots never.
 */
const ORIGIN = 'https://partner.example'
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
type Init = { method?: string; headers?: Record<string, string>; body?: BodyInit; params?: Record<string, string>; ip?: string }
type Handler = (args: never) => Promise<Response> | Response
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function call(handler: Handler, path: string, init: Init = {}): Promise<{ response: Response; body: any }> {
	const request = new Request(`http://localhost${path}`, { method: init.method ?? 'GET', headers: { 'User-Agent': BROWSER, ...init.headers }, body: init.body })
	const response = await handler({ request, params: init.params ?? {}, context: { clientIp: init.ip ?? '198.51.100.20' } } as never)
	return { response, body: await response.json() }
}
const keyed = (key: string, origin = ORIGIN) => ({ headers: { 'X-Partner-Key': key, Origin: origin } })

async function newPartner(overrides: { origins?: string[]; rateLimitPerMinute?: number } = {}) {
	const admin = await createAdmin()
	const name = `Partner ${Math.random().toString(36).slice(2, 8)}`
	const issued = await issuePartnerKey(admin.id, { name, origins: overrides.origins ?? [ORIGIN], rateLimitPerMinute: overrides.rateLimitPerMinute ?? 600 })
	return { admin, name, ...issued }
}

/** This partner's counts of today, by kind (summed over workshops), after writing what was counted. */
async function countsOf(partnerId: string) {
	await flushDailyCounts()
	const rows = await db
		.select({ kind: t.dailyCounts.kind, count: sql<number>`sum(${t.dailyCounts.count})::int` })
		.from(t.dailyCounts)
		.where(and(eq(t.dailyCounts.partnerId, partnerId), eq(t.dailyCounts.day, tallinnDay())))
		.groupBy(t.dailyCounts.kind)
	return Object.fromEntries(rows.map((row) => [row.kind, Number(row.count)])) as Partial<Record<CountKind, number>>
}

/** A workshop's counts of today without a partner, by kind. */
async function workshopCounts(workshopId: string) {
	await flushDailyCounts()
	const rows = await db
		.select({ kind: t.dailyCounts.kind, count: t.dailyCounts.count })
		.from(t.dailyCounts)
		.where(and(eq(t.dailyCounts.workshopId, workshopId), isNull(t.dailyCounts.partnerId), eq(t.dailyCounts.day, tallinnDay())))
	return Object.fromEntries(rows.map((row) => [row.kind, row.count])) as Partial<Record<CountKind, number>>
}

let listed: Array<{ id: string }>

beforeAll(async () => {
	await demoData()
	listed = (await call(workshopList, '/admin/api/workshop-list?lng=en&sort=name')).body.data.items
})

describe('issuing a key', () => {
	test('answers the key once; only its SHA-256 and a prefix are stored, and the audit log names neither', async () => {
		const { id, key, keyPrefix, admin } = await newPartner()
		expect(key).toMatch(/^pk_[A-Za-z0-9_-]{32}$/)
		expect(key.startsWith(keyPrefix)).toBe(true)
		const [row] = await db.select().from(t.partners).where(eq(t.partners.id, id))
		expect(row).toMatchObject({ keyHash: createHash('sha256').update(key).digest('hex'), keyPrefix, allowedOrigins: [ORIGIN], createdBy: admin.id, revokedAt: null })
		// Nowhere in the database is the key itself.
		const [found] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from partners p where p::text like ${`%${key}%`}`)
		expect(found!.n).toBe(0)
		const audit = await db.select().from(t.auditLog).where(eq(t.auditLog.entityId, id))
		expect(audit).toEqual([expect.objectContaining({ action: 'partner.create', actorId: admin.id, after: { name: row!.name, keyPrefix, allowedOrigins: [ORIGIN], rateLimitPerMinute: 600 } })])
		expect(JSON.stringify(audit)).not.toContain(key)
		expect(JSON.stringify(audit)).not.toContain(row!.keyHash)
	})

	test('through /admin/partners: the answer to the form shows the key, the page afterwards only its prefix; errors stay beside their fields', async () => {
		const admin = await createAdmin()
		const [token, csrfCookie] = await commitCsrfToken(new Request('http://localhost/'))
		const { request } = await adminRequest(admin.id, 'http://localhost/admin/partners')
		const cookie = `${request.headers.get('Cookie')}; ${csrfCookie!.split(';')[0]}`
		const send = async (fields: Record<string, string>) =>
			(await partnersAction({
				request: new Request('http://localhost/admin/partners', {
					method: 'POST',
					headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
					body: new URLSearchParams({ csrf: token!, ...fields }),
				}),
				params: {},
				...ROUTER_ARGS, context: {},
			})) as unknown
		type Answer = { data?: { result: { error?: Record<string, string[]> } }; init?: { status: number }; issued?: { key: string; slug: string; name: string } | null }

		const refused = (await send({ name: 'Autoklubi', origins: 'http://autoklubi.example', rateLimitPerMinute: '0' })) as Answer
		expect(refused.init?.status).toBe(400)
		expect(refused.data?.result.error).toMatchObject({
			origins: ['admin:partners.originInvalid|{"origin":"http://autoklubi.example"}'],
			rateLimitPerMinute: [expect.stringMatching(/^admin:partners\.limitRange\|/)],
		})
		const before = (await listPartners()).length
		expect(before).toBeGreaterThan(0)

		const answer = (await send({ name: 'Autoklubi test', origins: 'https://autoklubi.example\nhttp://localhost:8080', rateLimitPerMinute: '120' })) as Answer
		expect(answer.issued).toMatchObject({ name: 'Autoklubi test', key: expect.stringMatching(/^pk_/) })
		const partnerId = decodeId(answer.issued!.slug)!
		const [row] = await db.select().from(t.partners).where(eq(t.partners.id, partnerId))
		expect(row).toMatchObject({ allowedOrigins: ['https://autoklubi.example', 'http://localhost:8080'], rateLimitPerMinute: 120 })

		const page = await partnersLoader({ request: new Request('http://localhost/admin/partners', { headers: { Cookie: cookie } }), params: {}, ...ROUTER_ARGS, context: {} })
		expect(page.partners).toHaveLength(before + 1)
		expect(JSON.stringify(page)).not.toContain(answer.issued!.key)
		expect(page.partners.find((partner) => partner.id === partnerId)).toMatchObject({ keyPrefix: answer.issued!.key.slice(0, 9) })
	})

	test('the administrator only', async () => {
		const customer = await createCustomer()
		const { request } = await signedInRequest(customer.id, 'http://localhost/admin/partners')
		const { id } = await newPartner()
		for (const load of [
			partnersLoader({ request, params: {}, ...ROUTER_ARGS, context: {} }),
			partnerLoader({ request: again(request, `http://localhost/admin/partners/${encodeId(id)}`), params: { id: encodeId(id) }, ...ROUTER_ARGS, context: {} }),
		]) {
			const refused = await load.then(
				() => null,
				(error: unknown) => error,
			)
			expect(refused).toBeInstanceOf(Response)
			expect((refused as Response).status).not.toBe(200)
		}
	})
})

describe('a call with a key', () => {
	test('from an allowed origin is attributed to its partner; a wrong or missing origin, an unknown key: 403 in the documented shape, translated', async () => {
		const { key } = await newPartner()
		const ok = await call(workshopList, '/admin/api/workshop-list?lng=en', keyed(key))
		expect(ok.response.status).toBe(200)
		expect(await partnerOf(new Request('http://localhost/', keyed(key)))).toMatchObject({ name: expect.stringMatching(/^Partner /) })

		for (const [what, init, message] of [
			['another origin', keyed(key, 'https://copycat.example'), 'This partner key may not be used from this site.'],
			['no origin', { headers: { 'X-Partner-Key': key } }, 'This partner key may not be used from this site.'],
			['an unknown key', keyed('pk_unknownunknownunknownunknownunkn'), 'The partner key is not valid (unknown or revoked).'],
			['not a key at all', keyed('x'.repeat(300)), 'The partner key is not valid (unknown or revoked).'],
		] as const) {
			const refused = await call(workshopList, '/admin/api/workshop-list?lng=en', init)
			expect(refused.response.status, what).toBe(403)
			expect(refused.body, what).toEqual({ status: 403, message })
			expect(refused.response.headers.get('Access-Control-Allow-Origin')).toBe('*')
			expect(refused.response.headers.get('Cache-Control')).toBe('no-store')
		}
		// In the language asked for; the key may come as ?partner= too.
		const et = await call(workshopFilters, `/admin/api/workshop-filters?lng=et&partner=${key}`, { headers: { Origin: 'https://copycat.example' } })
		expect(et.body).toEqual({ status: 403, message: 'Seda partneri võtit ei tohi sellelt saidilt kasutada.' })
		const ru = await call(workshopFilters, `/admin/api/workshop-filters?lng=ru&partner=${key}`, { headers: { Origin: ORIGIN } })
		expect(ru.response.status).toBe(200)
	})

	test('is refused once revoked, and from an origin taken off its list, at once', async () => {
		const { id, key, admin } = await newPartner({ origins: [ORIGIN, 'https://second.example'] })
		expect((await call(workshopFilters, '/admin/api/workshop-filters?lng=en', keyed(key, 'https://second.example'))).response.status).toBe(200)
		await updatePartner(admin.id, id, { name: 'Renamed', origins: [ORIGIN], rateLimitPerMinute: 600 })
		expect((await call(workshopFilters, '/admin/api/workshop-filters?lng=en', keyed(key, 'https://second.example'))).response.status).toBe(403)
		expect((await call(workshopFilters, '/admin/api/workshop-filters?lng=en', keyed(key))).response.status).toBe(200)

		await revokePartner(admin.id, id)
		const refused = await call(workshopFilters, '/admin/api/workshop-filters?lng=en', keyed(key))
		expect(refused.response.status).toBe(403)
		expect(refused.body.message).toBe('The partner key is not valid (unknown or revoked).')
		// Revoking again changes nothing; a revoked partner is not changed.
		await revokePartner(admin.id, id)
		await expect(updatePartner(admin.id, id, { name: 'Again', origins: [ORIGIN], rateLimitPerMinute: 600 })).rejects.toMatchObject({ key: 'admin:partners.revokedNoChange', status: 409 })
		const actions = (await db.select().from(t.auditLog).where(eq(t.auditLog.entityId, id))).map((row) => row.action).sort()
		expect(actions).toEqual(['partner.create', 'partner.revoke', 'partner.update'])
	})

	test("over the partner's calls a minute: 429 with Retry-After, across its calls and visitors; calls without a key go on", async () => {
		const { key } = await newPartner({ rateLimitPerMinute: 10 })
		for (let n = 0; n < 10; n++) {
			const path = n % 2 ? '/admin/api/workshop-filters?lng=en' : `/admin/api/workshop-list?lng=en&page=${n}`
			const answer = await call(n % 2 ? workshopFilters : workshopList, path, { ...keyed(key), ip: `198.51.100.${100 + n}` })
			expect(answer.response.status, `call ${n + 1}`).toBe(200)
		}
		const over = await call(workshopList, '/admin/api/workshop-list?lng=ru', keyed(key))
		expect(over.response.status).toBe(429)
		expect(over.body).toEqual({ status: 429, message: expect.stringMatching(/^С этим ключом партнёра .* через \d+ с\.$/) })
		const retryAfter = Number(over.response.headers.get('Retry-After'))
		expect(retryAfter).toBeGreaterThanOrEqual(1)
		expect(retryAfter).toBeLessThanOrEqual(60)
		expect(over.body.message).toContain(` ${retryAfter} с.`)
		// A partner's page on another origin may read it.
		expect(over.response.headers.get('Access-Control-Expose-Headers')).toBe('Retry-After')
		const contact = await call(contactUs, '/admin/api/contact-us?lng=en', { method: 'POST', ...keyed(key), body: JSON.stringify({ name: 'Mari', email: 'mari@example.com', message: 'Tere' }) })
		expect(contact.response.status).toBe(429)
		// Without the key, the same visitor's calls work as ever.
		expect((await call(workshopList, '/admin/api/workshop-list?lng=en')).response.status).toBe(200)
	})

	test('is never kept by a shared cache; every answer of these calls varies with the key header', async () => {
		const { key } = await newPartner()
		const withKey = await call(workshopList, '/admin/api/workshop-list?lng=en', keyed(key))
		expect(withKey.response.headers.get('Cache-Control')).toBe('private, no-cache')
		expect(withKey.response.headers.get('Vary')).toMatch(/X-Partner-Key/)
		const withParam = await call(workshopDetails, `/admin/api/workshop-details/${listed[0]!.id}?lng=en&partner=${key}`, { headers: { Origin: ORIGIN }, params: { id: listed[0]!.id } })
		expect(withParam.response.headers.get('Cache-Control')).toBe('private, no-cache')
		const without = await call(workshopList, '/admin/api/workshop-list?lng=en')
		expect(without.response.headers.get('Cache-Control')).toMatch(/^public, max-age=30/)
		expect(without.response.headers.get('Vary')).toMatch(/X-Partner-Key/)
		expect(without.response.headers.get('Vary')).toMatch(/Origin/)
	})
})

describe('counting', () => {
	test("a partner's list, filters, details and contact calls reach daily_counts at the flush, attributed to it", async () => {
		const { id, key } = await newPartner()
		const workshop = listed[0]!.id
		const workshopId = decodeId(workshop)!
		const list = await call(workshopList, '/admin/api/workshop-list?lng=en&sort=name', keyed(key))
		const shown = new Set([...list.body.data.items, ...list.body.data.promoted].map((card: { id: string }) => card.id)).size
		await call(workshopFilters, '/admin/api/workshop-filters?lng=en', keyed(key))
		await call(workshopDetails, `/admin/api/workshop-details/${workshop}?lng=en`, { ...keyed(key), params: { id: workshop } })
		// The next page of its reviews is the same visit.
		await call(workshopDetails, `/admin/api/workshop-details/${workshop}?lng=en&page=2`, { ...keyed(key), params: { id: workshop } })
		const sent = await call(contactUs, '/admin/api/contact-us?lng=en', {
			method: 'POST',
			headers: { ...keyed(key).headers, 'Content-Type': 'application/json' },
			body: JSON.stringify({ name: 'Mari Tamm', email: 'mari@example.com', message: 'Tere!' }),
			ip: '198.51.100.201',
		})
		expect(sent.response.status).toBe(200)
		// A bot in the trap is thanked and not counted.
		await call(contactUs, '/admin/api/contact-us?lng=en', {
			method: 'POST',
			headers: { ...keyed(key).headers, 'Content-Type': 'application/json' },
			body: JSON.stringify({ name: 'Bot', email: 'bot@example.com', message: 'spam', name__confirm: 'filled' }),
			ip: '198.51.100.202',
		})

		expect(await countsOf(id)).toEqual({ search: 1, 'search-appearance': shown, 'widget-view': 2, 'widget-profile-view': 1, 'contact-message': 1 })
		await flushDailyCounts()
		const [profile] = await db
			.select()
			.from(t.dailyCounts)
			.where(and(eq(t.dailyCounts.partnerId, id), eq(t.dailyCounts.kind, 'widget-profile-view')))
		expect(profile).toMatchObject({ workshopId, count: 1, day: tallinnDay() })
		// The figures of its page: today's row, and every day of the 30 listed.
		const figures = await partnerFigures(id)
		expect(figures.days).toHaveLength(PARTNER_FIGURE_DAYS)
		expect(figures.days[0]).toEqual({ day: tallinnDay(), 'widget-view': 2, search: 1, 'search-appearance': shown, 'widget-profile-view': 1, 'contact-message': 1, 'widget-request': 0 })
		expect(figures.days.at(-1)!.day).toBe(shiftDay(tallinnDay(), 1 - PARTNER_FIGURE_DAYS))
		expect(figures.totals).toEqual({ 'widget-view': 2, search: 1, 'search-appearance': shown, 'widget-profile-view': 1, 'contact-message': 1, 'widget-request': 0 })
	})

	test('bots, HEAD requests and prefetches are not counted; the portal counts its list and workshop pages', async () => {
		const { id, key } = await newPartner()
		await call(workshopList, '/admin/api/workshop-list?lng=en', { headers: { ...keyed(key).headers, 'User-Agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' } })
		await call(workshopFilters, '/admin/api/workshop-filters?lng=en', { headers: { ...keyed(key).headers, 'Sec-Purpose': 'prefetch' } })
		expect(await countsOf(id)).toEqual({})

		const workshop = listed[1]!.id
		const workshopId = decodeId(workshop)!
		const before = await workshopCounts(workshopId)
		const page = (url: string, headers: Record<string, string> = {}) => new Request(`http://localhost${url}`, { headers: { 'User-Agent': BROWSER, ...headers } })
		await portalWorkshop({ request: page(`/workshop-details/${workshop}`), params: { id: workshop }, ...ROUTER_ARGS, context: {} })
		await portalWorkshop({ request: page(`/workshop-details/${workshop}?page=2`), params: { id: workshop }, ...ROUTER_ARGS, context: {} })
		await portalWorkshop({ request: page(`/workshop-details/${workshop}`, { 'User-Agent': 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)' }), params: { id: workshop }, ...ROUTER_ARGS, context: {} })
		const list = await portalList({ request: page('/workshop-list?sort=name'), params: {}, ...ROUTER_ARGS, context: {} })
		const onPage = [...list.result.items, ...list.promoted].some((card) => card.id === workshop)
		// And through a widget without a key: a workshop page opened, no partner.
		await call(workshopDetails, `/admin/api/workshop-details/${workshop}?lng=en`, { params: { id: workshop } })
		const after = await workshopCounts(workshopId)
		const grew = (kind: CountKind) => (after[kind] ?? 0) - (before[kind] ?? 0)
		expect(grew('profile-view')).toBe(1)
		expect(grew('widget-profile-view')).toBe(1)
		expect(grew('search-appearance')).toBe(onPage ? 1 : 0)
		expect(onPage).toBe(true)
	})

	test('a count for a workshop gone since is dropped at the flush, the others written', async () => {
		const { id } = await newPartner()
		countEvents([
			{ kind: 'widget-view', partnerId: id },
			{ kind: 'widget-profile-view', workshopId: '00000000-0000-4000-8000-000000000000', partnerId: id },
		])
		expect(await countsOf(id)).toEqual({ 'widget-view': 1 })
	})
})

describe('the partner page', () => {
	test('shows the figures of the last 30 days in the reader’s language, and takes changes and the revocation', async () => {
		const { id, admin } = await newPartner()
		const slug = encodeId(id)
		await db.insert(t.dailyCounts).values([
			{ day: shiftDay(tallinnDay(), -3), kind: 'search', partnerId: id, count: 1234 },
			{ day: shiftDay(tallinnDay(), -40), kind: 'search', partnerId: id, count: 7 },
		])
		const [token, csrfCookie] = await commitCsrfToken(new Request('http://localhost/'))
		const { request } = await adminRequest(admin.id, `http://localhost/admin/partners/${slug}?lng=et`)
		const cookie = `${request.headers.get('Cookie')}; ${csrfCookie!.split(';')[0]}`
		const page = await partnerLoader({ request: new Request(`http://localhost/admin/partners/${slug}?lng=et`, { headers: { Cookie: cookie } }), params: { id: slug }, ...ROUTER_ARGS, context: {} })
		expect(page.figures.totals.search).toBe(1234)
		const day = page.figures.days.find((row) => row.search === 1234)!
		expect(day.label).toMatch(/^\p{L}, \d{1,2}\. \p{L}+$/u)

		const post = (fields: Record<string, string>) =>
			partnerAction({
				request: new Request(`http://localhost/admin/partners/${slug}`, {
					method: 'POST',
					headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
					body: new URLSearchParams({ csrf: token!, ...fields }),
				}),
				params: { id: slug },
				...ROUTER_ARGS, context: {},
			})
		const invalid = (await post({ intent: 'update', name: 'X', origins: 'https://a.example/path', rateLimitPerMinute: '60' })) as { init: { status: number } }
		expect(invalid.init.status).toBe(400)
		const saved = (await post({ intent: 'update', name: 'Renamed partner', origins: 'https://a.example', rateLimitPerMinute: '60' })) as Response
		expect(saved.status).toBe(302)
		expect((await listPartners()).find((partner) => partner.id === id)).toMatchObject({ name: 'Renamed partner', allowedOrigins: ['https://a.example'], rateLimitPerMinute: 60 })
		const revoked = (await post({ intent: 'revoke' })) as Response
		expect(revoked.status).toBe(302)
		expect((await listPartners()).find((partner) => partner.id === id)!.revokedAt).toBeInstanceOf(Date)
		// Not another's or a missing id.
		await expect(partnerLoader({ request: new Request('http://localhost/admin/partners/nope', { headers: { Cookie: cookie } }), params: { id: 'nope' }, ...ROUTER_ARGS, context: {} })).rejects.toMatchObject({ status: 404 })
	})

	test('the demo data has its partners, one of them revoked, with 30 days of figures', async () => {
		const all = await listPartners()
		const club = all.find((partner) => partner.name === demoPartners[0].name)!
		expect(club.revokedAt).toBeNull()
		expect(all.find((partner) => partner.name === demoPartners[1].name)!.revokedAt).toBeInstanceOf(Date)
		const figures = await partnerFigures(club.id)
		expect(figures.days.filter((row) => row['widget-view'] > 0)).toHaveLength(PARTNER_FIGURE_DAYS)
		expect(figures.totals.search).toBeGreaterThan(0)
		expect(figures.totals['widget-request']).toBeGreaterThan(0)
	})
})
