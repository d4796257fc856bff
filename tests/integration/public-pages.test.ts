import { randomUUID } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import * as t from '~/db/schema'
import { MIN_RATED_REVIEWS, type WorkshopCard } from '~/domain/directory/workshops'
import { loader as homeLoader } from '~/routes/_public._index'
import { loader as aboutLoader } from '~/routes/_public.about'
import { action as contactAction } from '~/routes/_public.contact-us'
import { loader as loginLoader } from '~/routes/_public.login'
import { loader as privacyLoader } from '~/routes/_public.privacy-poicy'
import { loader as termsLoader } from '~/routes/_public.terms-conditions'
import { loader as thankYouLoader } from '~/routes/_public.thank-you'
import { loader as detailsLoader } from '~/routes/_public.workshop-details.$id'
import { loader as listLoader } from '~/routes/_public.workshop-list'
import { loader as robotsLoader } from '~/routes/robots[.]txt'
import { loader as sitemapPartLoader } from '~/routes/sitemap.$part'
import { loader as sitemapLoader } from '~/routes/sitemap[.]xml'
import { commitCsrfToken } from '~/utils/csrf.server'
import { db, queryRows } from '~/db/db.server'
import { honeypotInputProps } from '~/utils/honeypot.server'
import { getFixedT } from '~/i18n/i18n.server'
import { translateMessage } from '~/utils/messages'
import { encodeId } from '~/utils/public-id'
import { demoData } from '#tests/support/demo-data'

/** The portal's public pages through their loaders and actions, as the browser reaches them. */
const ORIGIN = 'http://localhost:3000'
const args = (path: string, init: { params?: Record<string, string>; request?: Request; ip?: string } = {}) =>
	({ request: init.request ?? new Request(`http://localhost${path}`), params: init.params ?? {}, context: { clientIp: init.ip ?? '192.0.2.10' } }) as never
/** What a loader threw (a 404, a redirect). */
const thrown = async (run: () => Promise<unknown>) => {
	try {
		await run()
	} catch (error) {
		return error as Response
	}
	throw new Error('expected the loader to throw')
}
const count = async (table: string) => (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${sql.identifier(table)}`))[0]!.n

beforeAll(async () => {
	await demoData()
})

/** "Best rated" as docs/api.md states it: enough reviews first, then the average, then the number of reviews. */
const byBestRated = (a: WorkshopCard, b: WorkshopCard) =>
	Number(b.reviewCount >= MIN_RATED_REVIEWS) - Number(a.reviewCount >= MIN_RATED_REVIEWS) || b.ratingAverage - a.ratingAverage || b.reviewCount - a.reviewCount

describe('the content pages', () => {
	test('show the title and body of the reader’s language, with canonical and hreflang addresses', async () => {
		const about = await aboutLoader(args('/about?lng=en'))
		expect(about.page).toMatchObject({ slug: 'about-us', language: 'en', title: 'About us' })
		expect(about.page.html).toContain('<strong>Autohub</strong> brings car owners')
		expect(about.meta).toMatchObject({ title: 'About us', canonical: `${ORIGIN}/about?lng=en`, locale: 'en_GB' })
		expect(about.meta.description!.length).toBeLessThanOrEqual(160)
		expect(about.meta.alternates).toEqual([
			{ hrefLang: 'et', href: `${ORIGIN}/about?lng=et` },
			{ hrefLang: 'en', href: `${ORIGIN}/about?lng=en` },
			{ hrefLang: 'ru', href: `${ORIGIN}/about?lng=ru` },
			{ hrefLang: 'x-default', href: `${ORIGIN}/about` },
		])
		expect((await termsLoader(args('/terms-conditions?lng=et'))).page.title).toBe('Kasutustingimused')
		expect((await privacyLoader(args('/privacy-poicy?lng=ru'))).page.title).toBe('Политика конфиденциальности')
	})

	test('the address without ?lng= is its own canonical (the x-default), not the Estonian version', async () => {
		expect((await aboutLoader(args('/about'))).meta.canonical).toBe(`${ORIGIN}/about`)
		expect((await aboutLoader(args('/about?lng=et'))).meta.canonical).toBe(`${ORIGIN}/about?lng=et`)
		const login = await loginLoader(args('/login?lng=ru'))
		expect(login.meta).toMatchObject({ canonical: `${ORIGIN}/login?lng=ru`, description: expect.stringMatching(/.{40,}/) })
	})

	test('sanitize the body before it is rendered', async () => {
		await db
			.update(t.contentPages)
			.set({ bodyHtml: '<h1>Hi</h1><p onmouseover="steal()">Text<script>alert(1)</script></p><a href="javascript:alert(1)">x</a><img src="http://insecure.example/a.png">' })
			.where(and(eq(t.contentPages.slug, 'terms-and-conditions'), eq(t.contentPages.language, 'en')))
		const { page } = await termsLoader(args('/terms-conditions?lng=en'))
		expect(page.html).toBe('<h2>Hi</h2><p>Text</p><a rel="noopener noreferrer">x</a>')
	})

	test('fall back to Estonian when a language has no version, and are 404 when the page is missing', async () => {
		await db.delete(t.contentPages).where(and(eq(t.contentPages.slug, 'privacy-policy'), eq(t.contentPages.language, 'ru')))
		const fallback = await privacyLoader(args('/privacy-poicy?lng=ru'))
		expect(fallback.page).toMatchObject({ language: 'et', title: 'Privaatsuspoliitika' })
		await db.delete(t.contentPages).where(eq(t.contentPages.slug, 'privacy-policy'))
		expect((await thrown(() => privacyLoader(args('/privacy-poicy')))).status).toBe(404)
	})
})

describe('the contact form', () => {
	async function submit(values: Record<string, string>, options: { ip?: string; lng?: string; trap?: string; csrf?: boolean } = {}) {
		const [token, cookie] = await commitCsrfToken(new Request('http://localhost/'))
		const form = new URLSearchParams()
		if (options.csrf !== false) form.set('csrf', token)
		const honeypot = honeypotInputProps()
		form.set(honeypot.nameFieldName, options.trap ?? '')
		form.set(honeypot.validFromFieldName!, honeypot.encryptedValidFrom)
		for (const [key, value] of Object.entries(values)) form.set(key, value)
		const request = new Request(`http://localhost/contact-us${options.lng ? `?lng=${options.lng}` : ''}`, {
			method: 'POST',
			headers: { Cookie: cookie!.split(';')[0]!, 'Content-Type': 'application/x-www-form-urlencoded' },
			body: form.toString(),
		})
		return contactAction(args('/contact-us', { request, ip: options.ip }))
	}
	type Reply = { data: { result: { status: string; error?: Record<string, string[]>; initialValue?: Record<string, string> } }; init: { status: number } | null }

	test('refuses a bad e-mail next to the field, keeps the input and stores nothing', async () => {
		const [messages, emails] = [await count('contact_messages'), await count('email_outbox')]
		const reply = (await submit({ name: 'Mari Tamm', email: 'mari@example', message: 'Tere!' }, { ip: '192.0.2.20' })) as unknown as Reply
		expect(reply.init?.status ?? 200).toBe(200)
		expect(reply.data.result.error).toEqual({ email: ['validation.email'] })
		expect(reply.data.result.initialValue).toMatchObject({ name: 'Mari Tamm', email: 'mari@example', message: 'Tere!' })
		expect(await count('contact_messages')).toBe(messages)
		expect(await count('email_outbox')).toBe(emails)
	})

	test('stores the message, queues the e-mail and redirects with the thank-you toast', async () => {
		const [messages, emails] = [await count('contact_messages'), await count('email_outbox')]
		const response = (await submit({ name: 'Kadri Saar', email: 'kadri@example.com', message: 'Kas teete ka haagiseid?' }, { ip: '192.0.2.21', lng: 'et' })) as Response
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toBe('/contact-us')
		expect(response.headers.get('Set-Cookie')).toContain('__session=')
		expect(await count('contact_messages')).toBe(messages + 1)
		expect(await count('email_outbox')).toBe(emails + 1)
		const [mail] = await db.select().from(t.emailOutbox).where(sql`${t.emailOutbox.subject} like '%Kadri Saar%'`)
		expect(mail).toMatchObject({ to: 'info@autohub.example', subject: 'Kontaktivorm: Kadri Saar (Autohub)' })
	})

	test('pretends success to a bot and stores nothing', async () => {
		const messages = await count('contact_messages')
		const response = (await submit({ name: 'Bot', email: 'bot@example.com', message: 'spam' }, { trap: 'gotcha', ip: '192.0.2.22' })) as Response
		expect(response.status).toBe(302)
		expect(await count('contact_messages')).toBe(messages)
	})

	test('refuses a form without the CSRF token', async () => {
		const error = await thrown(() => submit({ name: 'A', email: 'a@example.com', message: 'x' }, { csrf: false }))
		expect(error.status).toBe(403)
	})

	test('is rate limited per address, with a translated message', async () => {
		for (let n = 0; n < 5; n++) await submit({ name: 'Busy', email: 'busy@example.com', message: `#${n}` }, { ip: '192.0.2.99' })
		const reply = (await submit({ name: 'Busy', email: 'busy@example.com', message: '#6' }, { ip: '192.0.2.99', lng: 'en' })) as unknown as Reply
		expect(reply.init?.status).toBe(429)
		// The form shows the refusal above its fields, in the reader's language.
		expect(translateMessage(getFixedT('en'), reply.data.result.error?.['']?.[0] ?? '')).toMatch(/^Too many attempts\. Please try again in \d+ minutes\.$/)
	})
})

describe('the workshop list and details pages', () => {
	test('the list sends a form’s empty fields to the clean, shareable address', async () => {
		const redirect = await thrown(() => listLoader(args('/workshop-list?q=&city=tartu&service=&brand=&sort=rating')))
		expect(redirect.status).toBe(302)
		expect(redirect.headers.get('Location')).toBe('/workshop-list?city=tartu&sort=rating')
	})

	test('the list has its filters in the title and the canonical address', async () => {
		const data = await listLoader(args('/workshop-list?city=tartu&service=engine&page=1&lng=en'))
		expect(data.meta.title).toBe('Workshops: Engine repair, Tartu')
		expect(data.meta.canonical).toBe(`${ORIGIN}/workshop-list?city=tartu&service=engine&page=1&lng=en`)
		expect(data.result.items.map((w) => w.name)).toEqual(['Tartu Autoremont'])
		expect(data.options.cities).toContainEqual({ code: 'tartu', name: 'Tartu' })
	})

	test('"best rated" sorts by rating, never by payment; the paid workshops are apart, as an ad (issue 32)', async () => {
		const whole = async (sort: string) =>
			[...(await listLoader(args(`/workshop-list?lng=en&sort=${sort}`))).result.items, ...(await listLoader(args(`/workshop-list?lng=en&sort=${sort}&page=2`))).result.items]
		const sortNames = ['rating', 'reviews', 'name'] as const
		const before = Object.fromEntries(await Promise.all(sortNames.map(async (sort) => [sort, (await whole(sort)).map((w) => w.name)] as const)))
		const rated = await whole('rating')
		expect(rated.map((w) => w.name)).toEqual([...rated].sort(byBestRated).map((w) => w.name))
		// Only the worst rated (with enough reviews) pays: no list changes; it alone is in the ad block.
		const best = rated[0]!
		const worst = rated.filter((w) => w.reviewCount >= MIN_RATED_REVIEWS).at(-1)!
		expect(best.ratingAverage).toBeGreaterThan(worst.ratingAverage)
		const ranks = await queryRows<{ id: string; package_rank: number }>(db, sql`select id, package_rank from workshops`)
		await db.execute(sql`update workshops set package_rank = case when workshop_name = ${worst.name} then 1 else 0 end`)
		try {
			for (const sort of sortNames) {
				expect((await whole(sort)).map((w) => w.name), sort).toEqual(before[sort])
				const promoted = (await listLoader(args(`/workshop-list?lng=en&sort=${sort}`))).promoted.map((w) => w.name)
				expect(promoted, sort).toEqual([worst.name])
			}
		} finally {
			for (const row of ranks) await db.execute(sql`update workshops set package_rank = ${row.package_rank} where id = ${row.id}`)
		}
	})

	test('the details page is 404 for an id that does not decode or names no workshop', async () => {
		for (const id of ['nope', encodeId(randomUUID())]) {
			expect((await thrown(() => detailsLoader(args(`/workshop-details/${id}`, { params: { id } })))).status).toBe(404)
		}
	})

	test('the details page dates the reviews in the reader’s language', async () => {
		const [row] = await queryRows<{ id: string }>(db, sql`select id from workshops where workshop_name = 'Kask Autoteenindus'`)
		const id = encodeId(row!.id)
		const data = await detailsLoader(args(`/workshop-details/${id}?lng=et`, { params: { id } }))
		expect(data.workshop.name).toBe('Kask Autoteenindus')
		expect(data.meta.title).toBe('Kask Autoteenindus, Tallinn')
		expect(data.reviews.items[0]!.createdLabel).toMatch(/^\d{1,2}\. [a-zõäöü]+ \d{4}$/)
		// From its calendar (issue 33), each a link to the request form addressed to it with the time filled in.
		expect(data.nextFreeTimes.length).toBeGreaterThan(0)
		for (const time of data.nextFreeTimes) expect(time.path).toMatch(new RegExp(`^/new-service-register\\?workshop=${id}&at=\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}$`))
	})
})

describe('the home page', () => {
	test('shows the best rated workshops, whatever they pay (issue 32), and the latest reviews', async () => {
		const data = await homeLoader(args('/?lng=en'))
		expect(data.featured).toHaveLength(6)
		const list = await listLoader(args('/workshop-list?lng=en'))
		expect(data.featured.map((w) => w.name)).toEqual(list.result.items.slice(0, 6).map((w) => w.name))
		expect(data.latestReviews).toHaveLength(6)
		const dates = data.latestReviews.map((r) => r.createdAt)
		expect(dates).toEqual([...dates].sort().reverse())
		expect(data.latestReviews[0]!.workshop.name).toBe('Kask Autoteenindus')
		expect(data.options.services.length).toBeGreaterThan(10)
	})

	test('the thank-you page stays out of search engines', async () => {
		const data = await thankYouLoader(args('/thank-you?lng=en'))
		expect(data.meta).toMatchObject({ title: 'Thank you for subscribing', noindex: true })
	})
})

describe('search engines', () => {
	test('sitemap.xml lists the public pages, the cities with workshops, the price pages and every workshop, with hreflang alternates', async () => {
		const response = await sitemapLoader()
		expect(response.headers.get('Content-Type')).toBe('application/xml; charset=utf-8')
		const xml = await response.text()
		expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">')
		for (const path of ['/', '/workshop-list', '/cities', '/about', '/terms-conditions', '/privacy-poicy', '/contact-us']) {
			expect(xml).toContain(`<loc>${ORIGIN}${path}</loc>`)
		}
		const workshops = await queryRows<{ id: string }>(db, sql`select id from workshops`)
		for (const { id } of workshops) expect(xml).toContain(`<loc>${ORIGIN}/workshop-details/${encodeId(id)}</loc>`)
		// The demo's workshops sit in eight cities.
		expect(xml.match(/<loc>[^<]*\/workshop-list\?city=/g)).toHaveLength(8)
		// The price pages (issue 35): every service's, and each service's in every city where a listed workshop does it.
		const [prices] = await queryRows<{ services: number; pairs: number }>(
			db,
			sql`select (select count(*)::int from services where active) as services,
			           (select count(distinct (ws.service_id, w.city_id))::int from workshop_services ws join workshops w on w.id = ws.workshop_id where w.city_id is not null) as pairs`,
		)
		expect(xml).toContain(`<loc>${ORIGIN}/prices/brakes</loc>`)
		expect(xml).toContain(`<loc>${ORIGIN}/prices/brakes/tallinn</loc>`)
		expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="ru" href="${ORIGIN}/prices/oil-change/tartu?lng=ru"/>`)
		expect(xml.match(/<loc>[^<]*\/prices\//g)).toHaveLength(prices!.services + prices!.pairs)
		expect(xml.match(/<url>/g)).toHaveLength(7 + 8 + prices!.services + prices!.pairs + workshops.length)
		expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="ru" href="${ORIGIN}/about?lng=ru"/>`)
		expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="x-default" href="${ORIGIN}/about"/>`)
	})

	test('the parts of a large sitemap answer, unknown parts are 404', async () => {
		const part = (name: string) => sitemapPartLoader(args(`/sitemap/${name}`, { params: { part: name } }))
		expect((await part('pages.xml')).status).toBe(200)
		expect(await (await part('workshops-1.xml')).text()).toContain('/workshop-details/')
		expect((await part('workshops-2.xml')).status).toBe(404)
		expect((await part('../etc/passwd')).status).toBe(404)
	})

	test('robots.txt points at the sitemap and keeps accounts and the API out', async () => {
		const text = await (await robotsLoader()).text()
		expect(text).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`)
		expect(text).toContain('Disallow: /admin/')
		expect(text).toContain('Disallow: /dashboard')
		expect(text).toContain('Disallow: /report-review/')
	})
})
