import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import * as t from '~/db/schema'
import { demoSiteContacts, demoWorkshops } from '~/db/seed/demo-data.server'
import { MIN_RATED_REVIEWS } from '~/domain/directory/workshops'
import { forgetAds } from '~/domain/site/ads.server'
import { forgetCountedVisits, MAX_VISITORS_PER_ADDRESS } from '~/domain/site/visits.server'
import { loader as adsDetails } from '~/routes/admin.api.ads-details'
import { action as contactAction, loader as contactLoader } from '~/routes/admin.api.contact-us'
import { action as siteSettingsAction, loader as siteSettings } from '~/routes/admin.api.site-settings'
import { loader as visitInsert } from '~/routes/admin.api.visit-insert'
import { loader as workshopDetails } from '~/routes/admin.api.workshop-details.$id'
import { loader as workshopFilters } from '~/routes/admin.api.workshop-filters'
import { loader as workshopList } from '~/routes/admin.api.workshop-list'
import { db, queryRows } from '~/db/db.server'
import { encodeId } from '~/utils/public-id'
import { demoData } from '#tests/support/demo-data'

/**
 * The public JSON API (spec §7 and docs/api.md), called the way a partner site's browser calls
 * it: no cookie, no token, any origin. Field by field, because widgets and the spec's client
 * read these shapes.
 */
type Init = { method?: string; headers?: Record<string, string>; body?: BodyInit; ip?: string; params?: Record<string, string> }
const call = async (handler: (args: never) => Promise<Response> | Response, path: string, init: Init = {}) => {
	const request = new Request(`http://localhost${path}`, { method: init.method ?? 'GET', headers: init.headers, body: init.body })
	const response = await handler({ request, params: init.params ?? {}, context: { clientIp: init.ip ?? '192.0.2.1' } } as never)
	return { response, body: (await response.json()) as Record<string, any> } // eslint-disable-line @typescript-eslint/no-explicit-any
}
const count = async (table: string) => (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${sql.identifier(table)}`))[0]!.n

const ORIGIN = 'http://localhost:3000'
/** "Best rated" as docs/api.md states it: enough reviews first, then the average, then the number of reviews. */
const byBestRated = (a: { ratingAverage: number; reviewCount: number }, b: { ratingAverage: number; reviewCount: number }) =>
	Number(b.reviewCount >= MIN_RATED_REVIEWS) - Number(a.reviewCount >= MIN_RATED_REVIEWS) || b.ratingAverage - a.ratingAverage || b.reviewCount - a.reviewCount
const expectCors = (response: Response) => expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*')

beforeAll(async () => {
	await demoData()
})

describe('GET /admin/api/site-settings', () => {
	test('answers { responseCode: 1, responseData } with exactly the site data fields of spec §3', async () => {
		const { response, body } = await call(siteSettings, '/admin/api/site-settings')
		expect(response.status).toBe(200)
		expect(response.headers.get('Content-Type')).toBe('application/json; charset=utf-8')
		expectCors(response)
		expect(Object.keys(body)).toEqual(['responseCode', 'responseData'])
		expect(body.responseCode).toBe(1)
		expect(Object.keys(body.responseData)).toEqual([
			'appname',
			'favicon',
			'logo',
			'siteAddress',
			'siteAddressEstonian',
			'siteAddressRussian',
			'siteEmail',
			'countryCode',
			'sitePhoneNumber',
			'facebookLink',
			'twitterLink',
			'instagramLink',
			'linkedinLink',
		])
		expect(body.responseData).toMatchObject({ appname: 'Autohub', ...demoSiteContacts })
		// Absolute, so a partner site on another origin can show them.
		expect(body.responseData.logo).toMatch(new RegExp(`^${ORIGIN}/uploads/[A-Za-z0-9_-]+$`))
		expect(body.responseData.favicon).toMatch(new RegExp(`^${ORIGIN}/uploads/[A-Za-z0-9_-]+$`))
		for (const value of Object.values(body.responseData)) expect(typeof value).toBe('string')
	})

	test('takes no other method', async () => {
		const { response, body } = await call(siteSettingsAction, '/admin/api/site-settings?lng=en', { method: 'POST' })
		expect(response.status).toBe(405)
		expect(body).toEqual({ status: 405, message: 'This method is not allowed here.' })
		expectCors(response)
	})
})

describe('GET /admin/api/ads-details', () => {
	test('answers { status: 200, data: [{ ads_type, image, ads_link, content, placement, language }] }', async () => {
		const { response, body } = await call(adsDetails, '/admin/api/ads-details?lng=en')
		expect(response.status).toBe(200)
		expectCors(response)
		expect(Object.keys(body)).toEqual(['status', 'data'])
		expect(body.status).toBe(200)
		expect(body.data).toHaveLength(2)
		for (const ad of body.data) {
			expect(Object.keys(ad)).toEqual(['ads_type', 'image', 'ads_link', 'content', 'placement', 'language'])
			expect(['Header', 'Footer']).toContain(ad.placement)
		}
		// Header ads first, then footer ads.
		const [header, footer] = body.data
		// ads_type 1: an image (absolute URL) with its optional link; no content.
		expect(footer).toEqual({
			ads_type: 1,
			image: expect.stringMatching(new RegExp(`^${ORIGIN}/uploads/[A-Za-z0-9_-]+$`)),
			ads_link: `${ORIGIN}/workshop-list?service=maintenance`,
			content: null,
			placement: 'Footer',
			language: 'en',
		})
		// Anything else: sanitized HTML content, no image.
		expect(header).toMatchObject({ ads_type: 2, image: null, ads_link: null, placement: 'Header' })
		expect(header.content).toContain('<a href="/workshop-list?service=tyres" rel="noopener noreferrer">')
		// In English only: not the Estonian or Russian ad, nor all three texts at once (issue 32).
		expect(header.content).toContain('Winter tyres')
		expect(header.content).not.toMatch(/Talverehvid|Зимние/)
	})

	test('gives each reader only the ads of their language; an ad without it is not shown (issue 32)', async () => {
		await db.insert(t.ads).values({ adsType: 2, placement: 'Header', language: 'ru', content: '<p>Только по-русски</p>', sortOrder: 7 })
		forgetAds()
		const contents = async (language: string) =>
			(await call(adsDetails, `/admin/api/ads-details?lng=${language}`)).body.data.map((ad: { content: string | null; language: string }) => {
				expect(ad.language).toBe(language)
				return ad.content ?? ''
			}) as string[]
		expect((await contents('ru')).join(' ')).toContain('Только по-русски')
		expect((await contents('ru')).join(' ')).toContain('Зимние шины')
		for (const language of ['et', 'en']) expect((await contents(language)).join(' ')).not.toMatch(/Только|Зимние/)
		expect((await contents('et')).join(' ')).toContain('Talverehvid')
		await db.delete(t.ads).where(sql`${t.ads.sortOrder} = 7`)
		forgetAds()
	})

	test('sanitizes HTML ads, drops unsafe links and leaves out inactive ads', async () => {
		await db.insert(t.ads).values([
			{ adsType: 2, placement: 'Footer', language: 'et', content: '<p onclick="steal()">Sale<script>alert(1)</script></p>', sortOrder: 5 },
			{ adsType: 2, placement: 'Header', language: 'et', content: '<p>Hidden</p>', active: false },
			{ adsType: 2, placement: 'Header', language: 'et', content: '<script>only a script</script>', sortOrder: 9 },
		])
		forgetAds()
		const { body } = await call(adsDetails, '/admin/api/ads-details?lng=et')
		const contents = body.data.map((ad: { content: string | null }) => ad.content)
		expect(contents).toContain('<p>Sale</p>')
		expect(contents.join('')).not.toMatch(/script|onclick|Hidden/)
		// An HTML ad that sanitizes to nothing is not shown at all.
		expect(body.data).toHaveLength(3)
		await db.delete(t.ads).where(sql`${t.ads.sortOrder} in (5, 9) or not ${t.ads.active}`)
		forgetAds()
	})
})

describe('GET /admin/api/visit-insert', () => {
	const today = () => new Date().toISOString().slice(0, 10)
	const visitsToday = async () => (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from visits where day = ${today()}`))[0]!.n

	test('counts one visit per visitor per day and answers 200', async () => {
		const before = await visitsToday()
		const visit = (userAgent: string, ip: string) => call(visitInsert, '/admin/api/visit-insert', { headers: { 'User-Agent': userAgent }, ip })
		const first = await visit('Mozilla/5.0 (X11; Linux x86_64) Test/1', '198.51.100.7')
		expect(first.response.status).toBe(200)
		expectCors(first.response)
		expect(first.body).toEqual({ status: 200, message: 'OK' })
		await visit('Mozilla/5.0 (X11; Linux x86_64) Test/1', '198.51.100.7')
		// Even a process that forgot whom it has seen (a restart, another server) does not count twice.
		forgetCountedVisits()
		await visit('Mozilla/5.0 (X11; Linux x86_64) Test/1', '198.51.100.7')
		expect(await visitsToday()).toBe(before + 1)
		// Another browser or another address is another visitor.
		await visit('Mozilla/5.0 (X11; Linux x86_64) Test/2', '198.51.100.7')
		await visit('Mozilla/5.0 (X11; Linux x86_64) Test/1', '198.51.100.8')
		expect(await visitsToday()).toBe(before + 3)
		// Search engines are not visitors.
		await visit('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', '66.249.66.1')
		expect(await visitsToday()).toBe(before + 3)
	})

	test('one address counts a few visitors a day, however many browsers it claims to be', async () => {
		const before = await visitsToday()
		for (let n = 0; n < 40; n++) {
			await call(visitInsert, '/admin/api/visit-insert', { headers: { 'User-Agent': `Mozilla/5.0 (X11; Linux x86_64) Invented/${n}` }, ip: '203.0.113.77' })
		}
		expect(await visitsToday()).toBe(before + MAX_VISITORS_PER_ADDRESS)
	})

	test('never stores the address itself', async () => {
		const rows = await queryRows<{ visitor_hash: string }>(db, sql`select visitor_hash from visits where day = ${today()} and visitor_hash not like 'demo-%'`)
		for (const row of rows) {
			expect(row.visitor_hash).toMatch(/^[0-9a-f]{64}$/)
			expect(row.visitor_hash).not.toContain('198.51.100')
			expect(row.visitor_hash).not.toContain('203.0.113')
		}
	})
})

describe('GET /admin/api/workshop-list', () => {
	const names = (body: Record<string, any>) => body.data.items.map((w: { name: string }) => w.name) // eslint-disable-line @typescript-eslint/no-explicit-any

	test('answers a page of workshop cards best rated first, whatever they pay, and the paid ones apart (issue 32)', async () => {
		const { response, body } = await call(workshopList, '/admin/api/workshop-list?lng=en')
		expect(response.status).toBe(200)
		expectCors(response)
		expect(body.status).toBe(200)
		expect(Object.keys(body.data)).toEqual(['items', 'page', 'pageSize', 'total', 'totalPages', 'capped', 'promoted', 'query'])
		expect(body.data).toMatchObject({ page: 1, pageSize: 9, total: demoWorkshops.length, totalPages: 2, capped: false })
		expect(body.data.items).toHaveLength(9)
		const card = body.data.items[0]
		expect(Object.keys(card)).toEqual(['id', 'name', 'city', 'logo', 'ratingAverage', 'reviewCount', 'services', 'featured', 'url', 'nextFree'])
		// workshops.next_free_at (issue 33): null until the job has computed it, then a time and its link.
		expect(card.nextFree === null || (typeof card.nextFree.startsAt === 'string' && card.nextFree.url.startsWith(`${ORIGIN}/login?redirectTo=`))).toBe(true)
		expect(card.logo).toMatch(new RegExp(`^${ORIGIN}/uploads/[A-Za-z0-9_-]+\\?variant=thumb$`))
		expect(card.url).toBe(`${ORIGIN}/workshop-details/${card.id}`)
		expect(card.services.length).toBeGreaterThan(0)
		expect(card.services.length).toBeLessThanOrEqual(4)

		type Card = { name: string; featured: boolean; ratingAverage: number; reviewCount: number }
		// The whole list, both pages: sorted by the "best rated" rule, payment nowhere in it.
		const second = await call(workshopList, '/admin/api/workshop-list?lng=en&page=2')
		const items = [...body.data.items, ...second.body.data.items] as Card[]
		expect(items.map((w) => w.name)).toEqual([...items].sort(byBestRated).map((w) => w.name))
		// Paying lifts nobody: a workshop without the package is above a paid one (the demo's 5.0★ above a paid 3.7★).
		const paid = demoWorkshops.filter((w) => w.pro).map((w) => w.name)
		const paidCards = items.filter((w) => paid.includes(w.name))
		expect(paidCards.every((w) => w.featured)).toBe(true)
		expect(items.findIndex((w) => !w.featured)).toBeLessThan(items.findLastIndex((w) => w.featured))
		// The paid workshops keep their place in the list, and are apart in `promoted`: the best rated three.
		const promoted = body.data.promoted as Array<Card & { url: string }>
		expect(promoted.map((w) => w.name)).toEqual(paidCards.slice(0, 3).map((w) => w.name))
		expect(promoted.every((w) => w.url.startsWith(`${ORIGIN}/workshop-details/`))).toBe(true)
		expect(second.body.data.promoted.map((w: Card) => w.name)).toEqual(promoted.map((w) => w.name))
	})

	test('the promoted block follows the filters: none where no paid workshop matches', async () => {
		const tartu = (await call(workshopList, '/admin/api/workshop-list?city=tartu&lng=en')).body.data
		const paidInTartu = (tartu.items as Array<{ name: string; featured: boolean }>).filter((w) => w.featured).map((w) => w.name)
		expect(tartu.promoted.map((w: { name: string }) => w.name)).toEqual(paidInTartu.slice(0, 3))
		const unknown = await call(workshopList, '/admin/api/workshop-list?city=atlantis')
		expect(unknown.body.data.promoted).toEqual([])
	})

	test('pages through the whole list without repeating a workshop', async () => {
		const first = await call(workshopList, '/admin/api/workshop-list')
		const second = await call(workshopList, '/admin/api/workshop-list?page=2')
		expect(second.body.data.items).toHaveLength(demoWorkshops.length - 9)
		expect([...names(first.body), ...names(second.body)].sort()).toEqual(demoWorkshops.map((w) => w.name).sort())
		const beyond = await call(workshopList, '/admin/api/workshop-list?page=3')
		expect(beyond.body.data.items).toEqual([])
	})

	test('filters by city, service and car brand codes, alone and together', async () => {
		const expected = (test: (w: (typeof demoWorkshops)[number]) => boolean) =>
			demoWorkshops
				.filter(test)
				.map((w) => w.name)
				.sort()
		const tartu = await call(workshopList, '/admin/api/workshop-list?city=tartu&lng=en')
		expect(names(tartu.body).sort()).toEqual(expected((w) => w.city === 'tartu'))
		expect(tartu.body.data.items.every((w: { city: string }) => w.city === 'Tartu')).toBe(true)

		const ev = await call(workshopList, '/admin/api/workshop-list?service=ev-service')
		expect(names(ev.body).sort()).toEqual(expected((w) => w.services.includes('ev-service')))

		const tesla = await call(workshopList, '/admin/api/workshop-list?brand=tesla')
		expect(tesla.body.data.total).toBe(expected((w) => w.brands.includes('tesla')).length)

		const all = await call(workshopList, '/admin/api/workshop-list?city=tallinn&service=tyres&brand=toyota&lng=en')
		const want = expected((w) => w.city === 'tallinn' && w.services.includes('tyres') && w.brands.includes('toyota'))
		expect(want.length).toBeGreaterThan(1)
		expect(names(all.body).sort()).toEqual(want)
		// The service filtered on comes first on each card.
		for (const card of all.body.data.items) expect(card.services[0]).toBe('Tyre change and storage')
	})

	test('searches names, case-insensitively and literally', async () => {
		expect(names((await call(workshopList, '/admin/api/workshop-list?q=KASK')).body)).toEqual(['Kask Autoteenindus'])
		expect(names((await call(workshopList, '/admin/api/workshop-list?q=autok')).body).sort()).toEqual(['Mustamäe Autoklaas', 'Raadi Autokeskus', 'Viljandi Autokeskus'])
		expect((await call(workshopList, '/admin/api/workshop-list?q=%25')).body.data.total).toBe(0)
		expect((await call(workshopList, '/admin/api/workshop-list?q=_')).body.data.total).toBe(0)
	})

	test('sorts by name and by number of reviews', async () => {
		const byName = names((await call(workshopList, '/admin/api/workshop-list?sort=name')).body)
		expect(byName[0]).toBe('Emajõe Autohooldus')
		const byReviews = (await call(workshopList, '/admin/api/workshop-list?sort=reviews')).body.data.items as Array<{ reviewCount: number }>
		for (let i = 1; i < byReviews.length; i++) expect(byReviews[i - 1]!.reviewCount).toBeGreaterThanOrEqual(byReviews[i]!.reviewCount)
	})

	test('names services in the language asked for, and finds nothing for an unknown code', async () => {
		const et = await call(workshopList, '/admin/api/workshop-list?q=rehvikeskus&lng=et')
		const ru = await call(workshopList, '/admin/api/workshop-list?q=rehvikeskus&lng=ru')
		expect(et.body.data.items[0].services).toContain('Rehvivahetus ja -hotell')
		expect(ru.body.data.items[0].services).toContain('Шиномонтаж и хранение шин')
		const unknown = await call(workshopList, '/admin/api/workshop-list?city=atlantis')
		expect(unknown.body.data).toMatchObject({ items: [], total: 0, totalPages: 0 })
	})

	test('GET /admin/api/workshop-filters lists the choices in the language asked for', async () => {
		const { response, body } = await call(workshopFilters, '/admin/api/workshop-filters?lng=en')
		expectCors(response)
		expect(Object.keys(body.data)).toEqual(['cities', 'services', 'brands', 'sorts'])
		expect(body.data.cities).toContainEqual({ code: 'tallinn', name: 'Tallinn' })
		expect(body.data.services).toContainEqual({ code: 'tyres', name: 'Tyre change and storage' })
		expect(body.data.brands).toContainEqual({ code: 'toyota', name: 'Toyota' })
		expect(body.data.sorts).toEqual(['rating', 'reviews', 'name'])
	})
})

describe('GET /admin/api/workshop-details/{id}', () => {
	const idOf = async (name: string) => {
		const [row] = await queryRows<{ id: string }>(db, sql`select id from workshops where workshop_name = ${name}`)
		return encodeId(row!.id)
	}

	test('answers the whole public profile, the rating and a page of reviews with replies, newest first', async () => {
		const id = await idOf('Kask Autoteenindus')
		const { response, body } = await call(workshopDetails, `/admin/api/workshop-details/${id}?lng=en`, { params: { id } })
		expect(response.status).toBe(200)
		expectCors(response)
		expect(Object.keys(body)).toEqual(['status', 'data'])
		expect(Object.keys(body.data)).toEqual(['workshop', 'rating', 'reviews'])
		const workshop = body.data.workshop
		expect(Object.keys(workshop).sort()).toEqual(
			[
				'id',
				'name',
				'companyName',
				'featured',
				'logo',
				'photos',
				'marketingText',
				'address',
				'phone',
				'email',
				'website',
				'foundedYear',
				'installersCount',
				'carBrands',
				'services',
				'additionalServices',
				'spareParts',
				'paymentMethods',
				'openingHours',
				'nextFreeTimes',
				'warranty',
				'ratingAverage',
				'reviewCount',
				'priceRecord',
				'url',
			].sort(),
		)
		expect(workshop).toMatchObject({
			id,
			name: 'Kask Autoteenindus',
			featured: false,
			address: { street: 'Peterburi tee 46', zipCode: '11415', city: 'Tallinn', state: 'Harju maakond' },
			email: 'info@kask-autoteenindus.example',
			website: 'https://kask-autoteenindus.example',
			foundedYear: 2009,
			installersCount: 8,
			openingHours: { weekdays: { opens: '08:00', closes: '18:00' }, saturday: { opens: '10:00', closes: '15:00' }, sunday: null },
			warranty: { workKm: 10000, partsMonths: 12 },
			url: `${ORIGIN}/workshop-details/${id}`,
		})
		expect(workshop.services).toContain('Tyre change and storage')
		expect(workshop.carBrands).toContain('Toyota')
		expect(workshop.spareParts.length).toBeGreaterThan(0)
		expect(workshop.paymentMethods).toContain('Card')
		expect(workshop.logo).toMatch(new RegExp(`^${ORIGIN}/uploads/`))
		expect(workshop.photos.length).toBeGreaterThanOrEqual(2)
		for (const photo of workshop.photos) {
			expect(photo.url).toMatch(new RegExp(`^${ORIGIN}/uploads/[A-Za-z0-9_-]+$`))
			expect(photo.thumbnail).toBe(`${photo.url}?variant=thumb`)
		}
		// From its calendar (issue 33): each a link to the request form with the time filled in, by way of the log-in.
		for (const time of workshop.nextFreeTimes) {
			expect(new Date(time.startsAt).getTime()).toBeGreaterThan(Date.now())
			const redirectTo = new URL(time.url).searchParams.get('redirectTo')!
			expect(time.url.startsWith(`${ORIGIN}/login?`)).toBe(true)
			expect(redirectTo).toMatch(new RegExp(`^/new-service-register\\?workshop=${id}&at=\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}$`))
		}

		const [stored] = await queryRows<{ rating_average: number; review_count: number }>(
			db,
			sql`select rating_average, review_count from workshops where workshop_name = 'Kask Autoteenindus'`,
		)
		expect(body.data.rating).toEqual({ average: Math.round(stored!.rating_average * 100) / 100, count: stored!.review_count })

		const reviews = body.data.reviews
		expect(Object.keys(reviews)).toEqual(['items', 'page', 'pageSize', 'total', 'totalPages', 'capped'])
		expect(reviews).toMatchObject({ page: 1, pageSize: 5, total: stored!.review_count })
		expect(Object.keys(reviews.items[0])).toEqual([
			'id',
			'rating',
			'title',
			'body',
			'reviewer',
			// Issue 36: the reviewer signed in with eID (a verified person).
			'reviewerVerified',
			'createdAt',
			'reply',
			'repliedAt',
			'verifiedJob',
			'services',
			'quotedCents',
			'paidCents',
		])
		const dates = reviews.items.map((r: { createdAt: string }) => r.createdAt)
		expect(dates).toEqual([...dates].sort().reverse())
		expect(reviews.items[0]).toMatchObject({ rating: 5, title: 'Auto sõidab jälle otse', reviewer: 'Mari T.', reviewerVerified: false, reply: null })
		// A verified job (issue 19): the €300 offer and the €20 of extra work the customer approved, paid as agreed.
		expect(reviews.items[0]).toMatchObject({ verifiedJob: true, quotedCents: 32000, paidCents: 32000 })
		expect(reviews.items[0].services.length).toBe(2)
		// The demo workshop has more than five jobs in twelve months: its record is shown.
		expect(workshop.priceRecord).toMatchObject({ jobs: expect.any(Number), atQuotedPercent: expect.any(Number) })
		expect(workshop.priceRecord.jobs).toBeGreaterThanOrEqual(5)
		expect(reviews.items.find((r: { reply: string | null }) => r.reply === 'Aitäh, Mari! Järgmisel korral broneerime Teile hommikuse aja.')).toBeTruthy()
	})

	test('pages through the reviews', async () => {
		const [busiest] = await queryRows<{ id: string; review_count: number }>(db, sql`select id, review_count from workshops order by review_count desc limit 1`)
		const id = encodeId(busiest!.id)
		const first = await call(workshopDetails, `/admin/api/workshop-details/${id}`, { params: { id } })
		const pages = first.body.data.reviews.totalPages
		expect(pages).toBe(Math.ceil(busiest!.review_count / 5))
		const last = await call(workshopDetails, `/admin/api/workshop-details/${id}?page=${pages}`, { params: { id } })
		expect(last.body.data.reviews.items.length).toBe(busiest!.review_count - (pages - 1) * 5)
		const seen = new Set([...first.body.data.reviews.items, ...last.body.data.reviews.items].map((r: { id: string }) => r.id))
		expect(seen.size).toBe(first.body.data.reviews.items.length + last.body.data.reviews.items.length)
	})

	test('answers 404 in the language asked for when there is no such workshop', async () => {
		for (const id of [encodeId(randomUUID()), 'not-an-id']) {
			const { response, body } = await call(workshopDetails, `/admin/api/workshop-details/${id}?lng=en`, { params: { id } })
			expect(response.status).toBe(404)
			expectCors(response)
			expect(body).toEqual({ status: 404, message: 'Not found.' })
		}
	})
})

describe('POST /admin/api/contact-us', () => {
	const post = (body: unknown, init: { lng?: string; ip?: string; form?: boolean } = {}) =>
		call(contactAction, `/admin/api/contact-us${init.lng ? `?lng=${init.lng}` : ''}`, {
			method: 'POST',
			ip: init.ip,
			headers: { 'Content-Type': init.form ? 'application/x-www-form-urlencoded' : 'application/json', Origin: 'https://partner.example' },
			body: init.form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body),
		})

	test('refuses a bad e-mail with a clear error in the language asked for, and stores nothing', async () => {
		const [messages, emails] = [await count('contact_messages'), await count('email_outbox')]
		const { response, body } = await post({ name: 'Mari Tamm', email: 'mari@example', message: 'Tere!' }, { lng: 'en', ip: '203.0.113.1' })
		expect(response.status).toBe(422)
		expectCors(response)
		expect(body).toEqual({ status: 422, message: 'Please correct the marked fields.', errors: { email: ['Enter a valid e-mail address.'] } })
		const estonian = await post({ name: 'Mari Tamm', email: 'not an e-mail', message: 'Tere!' }, { lng: 'et', ip: '203.0.113.1' })
		expect(estonian.body.errors).toEqual({ email: ['Sisesta kehtiv e-posti aadress.'] })
		expect(await count('contact_messages')).toBe(messages)
		expect(await count('email_outbox')).toBe(emails)
	})

	test('requires name, e-mail and message', async () => {
		const { response, body } = await post({ name: '  ', message: '' }, { lng: 'en', ip: '203.0.113.2' })
		expect(response.status).toBe(422)
		expect(body.errors).toEqual({ name: ['This field is required.'], email: ['This field is required.'], message: ['This field is required.'] })
	})

	test('stores the message and queues an e-mail to the site e-mail in the same transaction', async () => {
		const [messages, emails] = [await count('contact_messages'), await count('email_outbox')]
		const { response, body } = await post({ name: 'Olga Ivanova', email: 'Olga@Example.com', message: 'Здравствуйте!\nЕсть вопрос.' }, { lng: 'ru', ip: '203.0.113.3' })
		expect(response.status).toBe(200)
		expectCors(response)
		expect(body).toEqual({ status: 200, message: 'Спасибо за сообщение! Мы скоро с вами свяжемся.' })
		expect(await count('contact_messages')).toBe(messages + 1)
		expect(await count('email_outbox')).toBe(emails + 1)
		const [stored] = await db
			.select()
			.from(t.contactMessages)
			.where(sql`${t.contactMessages.name} = 'Olga Ivanova'`)
		expect(stored).toMatchObject({ email: 'olga@example.com', message: 'Здравствуйте!\nЕсть вопрос.', language: 'ru' })
		const [mail] = await db
			.select()
			.from(t.emailOutbox)
			.where(sql`${t.emailOutbox.subject} like '%Olga Ivanova%'`)
		expect(mail).toMatchObject({ to: 'info@autohub.example', status: 'pending' })
		expect(mail!.text).toContain('olga@example.com')
		expect(mail!.text).toContain('Здравствуйте!\nЕсть вопрос.')
	})

	test('takes form data too', async () => {
		const { response } = await post({ name: 'Form Sender', email: 'form@example.com', message: 'Hello' }, { form: true, ip: '203.0.113.4' })
		expect(response.status).toBe(200)
	})

	test('thanks a bot that filled the trap field, and keeps nothing', async () => {
		const messages = await count('contact_messages')
		const { response } = await post({ name: 'Bot', email: 'bot@example.com', message: 'Buy now', name__confirm: 'http://spam.example' }, { ip: '203.0.113.5' })
		expect(response.status).toBe(200)
		expect(await count('contact_messages')).toBe(messages)
	})

	test('limits how many messages one address may send', async () => {
		for (let n = 1; n <= 5; n++) {
			expect((await post({ name: 'Busy', email: 'busy@example.com', message: `#${n}` }, { ip: '203.0.113.99' })).response.status).toBe(200)
		}
		const { response, body } = await post({ name: 'Busy', email: 'busy@example.com', message: '#6' }, { lng: 'en', ip: '203.0.113.99' })
		expect(response.status).toBe(429)
		expect(Number(response.headers.get('Retry-After'))).toBeGreaterThan(0)
		// Readable by the widget on a partner's site, like the other answers of this call.
		expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*')
		expect(body.message).toMatch(/^Too many attempts\. Please try again in \d+ minutes\.$/)
	})

	test('answers GET with 405', async () => {
		const { response } = await call(contactLoader, '/admin/api/contact-us')
		expect(response.status).toBe(405)
		expect(response.headers.get('Allow')).toBe('POST, OPTIONS')
	})
})
